__global__ void k(int *v) { *v = undeclared; }
int main() { return 0; }
