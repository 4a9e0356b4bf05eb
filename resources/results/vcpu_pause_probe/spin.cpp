#include <time.h>
#include <cstdio>
#include <vector>
#include <algorithm>
static double cpu(){timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static double wall(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
int main(){ volatile double x=0; std::vector<double> v; double w0=wall();
 while(wall()-w0<20000){ double c=cpu(); for(int i=0;i<200000;++i) x+=i*0.5; v.push_back(cpu()-c);}
 std::sort(v.rbegin(),v.rend()); printf("units %zu median %.2f ms top:",v.size(),v[v.size()/2]); for(int i=0;i<8;++i)printf(" %.1f",v[i]); printf("\n");}
