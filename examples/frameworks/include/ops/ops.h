#pragma once
namespace ops {
int add(int A, int B);
int subtract(int A, int B);
int multiply(int A, int B);
int negate(int A);
} // namespace ops
