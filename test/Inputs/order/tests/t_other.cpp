int h(int);
int main() { return h(1) == 0 ? 0 : 1; }
