int f(int);
int g(int);
int main() { return f(1) + g(1) == 4 ? 0 : 1; }
