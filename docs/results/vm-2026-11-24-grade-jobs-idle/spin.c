#include <stdio.h>
int main(void){ volatile unsigned long x=0; for (unsigned long i=0;i<1500000000UL;i++) x+=i*i; printf("%lu\n",(unsigned long)x); return 0; }
