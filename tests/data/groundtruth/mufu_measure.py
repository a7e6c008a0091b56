# Measures the GPU's fast-math intrinsics and raw MUFU ops (run on an H100 by the device tool).
import numpy as np,cupy as cp,subprocess as sp,os
O=os.environ['OUT'];A='asm("%s.approx.ftz.f32 %%0,%%1;":"=f"(r):"f"(x))'
F={'rcp':A%'rcp','rsq':A%'rsqrt','ex2':A%'ex2','lg2':A%'lg2','sinf':'r=__sinf(x)','cosf':'r=__cosf(x)',
'tanf':'r=__tanf(x)','expf':'r=__expf(x)','exp10f':'r=__exp10f(x)','logf':'r=__logf(x)','log2f':'r=__log2f(x)',
'log10f':'r=__log10f(x)','powf':'r=__powf(x,y)','fdividef':'r=__fdividef(x,y)','rsqrtf':'r=rsqrtf(x)',
'frcp':'r=__frcp_rn(x)','frsqrt':'r=__frsqrt_rn(x)','sincos_s':'__sincosf(x,&r,&y)','sincos_c':'__sincosf(x,&y,&r)'}
open('/tmp/m.cu','w').write(''.join('extern "C" __global__ void k_%s(const float*a,const float*b,float*o,int n)'
 '{int i=blockIdx.x*256+threadIdx.x;if(i<n){float x=a[i],y=b[i],r;%s;o[i]=r;}}\n'%kv for kv in F.items()))
sp.run('nvcc -w -arch=sm_90 -cubin -o /tmp/m.cubin /tmp/m.cu&&(nvcc --version;cuobjdump -sass /tmp/m.cubin)>$OUT/sass.txt',shell=True)
M=cp.RawModule(path='/tmp/m.cubin')
def run(k,x,y):
 x=cp.asarray(x,cp.float32);y=cp.asarray(y,cp.float32);o=cp.empty_like(x);n=x.size
 M.get_function('k_'+k)(((n+255)//256,),(256,),(x,y,o,np.int32(n)));return o.get().view(np.uint32)
def span(lo,n):return(np.arange(n,dtype=np.uint32)+np.uint32(lo)).view(np.float32)
def delta(u):return np.diff(u,prepend=np.uint32(0))
E={'rcp_1_2':('rcp',0x3f800000,23),'rsq_1_4':('rsq',0x3f800000,24),'ex2_1_2':('ex2',0x3f800000,23),
'ex2_h_1':('ex2',0x3f000000,23),'ex2_m1_mh':('ex2',0xbf000000,23),'lg2_1_2':('lg2',0x3f800000,23),
'lg2_2_4':('lg2',0x40000000,23)}
for f in('sinf','cosf'):
 for lo,nm in((0x3f800000,'1_2'),(0x40000000,'2_4'),(0x40800000,'4_8')):E[f+'_'+nm]=(f,lo,23)
D={};[D.__setitem__(k,delta(run(f,span(lo,1<<b),span(lo,1<<b)))) for k,(f,lo,b) in E.items()]
np.savez_compressed(O+'/spans.npz',**D)
S=np.array([0,-0.,1,-1,np.inf,-np.inf,np.nan,1e-45,-1e-45,1.1754942e-38,1.1754944e-38,3.4028235e38,-3.4028235e38,
 2**126,3e38,-3e38,.5,2,1e-30,1e30,100,-100,88.7,-87.3,89,-104,128,-126,-127,-149,-150,1e-20,-1e-20,1e20],np.float32)
R={'sin':100,'cos':100,'tan':100,'sincos':100,'expf':100,'exp10f':40,'ex2':130,'powf':10,'fdividef':1e3}
g=np.random.default_rng(14);n=1<<16;X={}
for f in F:
 r=next((v for k,v in R.items() if f.startswith(k)),1e3)
 x=np.concatenate([g.integers(0,2**32,n//2,dtype=np.uint32).view(np.float32),g.uniform(-r,r,n//2).astype(np.float32),S])
 y=np.concatenate([g.integers(0,2**32,n//2,dtype=np.uint32).view(np.float32),g.uniform(-20,20,n//2).astype(np.float32),np.roll(S,3)])
 if f=='powf':x[n//2:n]=np.abs(x[n//2:n])
 X[f+'_x']=x;X[f+'_out']=run(f,x,y)
 if f in('powf','fdividef'):X[f+'_y']=y
np.savez_compressed(O+'/samples.npz',**X)
