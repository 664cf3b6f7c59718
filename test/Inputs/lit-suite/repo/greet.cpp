#include <cstdio>
#include <cstring>

void hello() { std::puts("Hello"); }
void bye() { std::puts("Bye"); }

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "hello") == 0)
    hello();
  else if (Argc > 1 && std::strcmp(Argv[1], "bye") == 0)
    bye();
  return 0;
}
