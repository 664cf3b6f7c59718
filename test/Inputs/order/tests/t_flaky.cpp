int f(int);
int main() { return f(1) == 2 ? 0 : 1; }
