#!/usr/bin/env python3
"""An experiment outside teg (not part of the model), the companion of gpucache-warp-split.py: does
greedy-then-oldest issue split gpu-cache's 8 warps on a V100 SM? Cycle by cycle: warp w on
scheduler w % 4, each scheduler issuing its greedy warp, else its oldest, one load a cycle; the
schedulers take turns for an SM-wide LSU queue of `--queue` loads; the LSU takes one 256-byte load
per 2 cycles when the lines it misses fit under `--in-flight` L1 misses in flight (teg's C_mem for
the V100, Lai eq. 3.2, is 115 sectors, about 28 lines); misses are served in order by the SM's L2
share (19.52 B/clk, 193 cycles), hits take 28 cycles, each batch of 32 loads is followed by its
chain of fp64 adds (8 cycles each); the L1 is 4 sets x 256 ways, LRU, allocated on the miss. The
figures are teg's for tesla-v100-pcie-16gb, copied (an experiment). docs/validation.md ("helper
cache, sixth session") has the results.
"""
import argparse
from collections import OrderedDict, deque
def run(kib, passes, Q=4, M=28, sets=4, ways=256):
    N = kib*1024//128; L = N//8; lpp = L//2
    cache=[OrderedDict() for _ in range(sets)]
    def access(line):
        s=cache[(line^(line>>2)^(line>>4))&(sets-1)]
        if line in s: s.move_to_end(line); return True
        if len(s)>=ways: s.popitem(last=False)
        s[line]=True; return False
    svc=128/19.52
    pos=[0]*8; done=[0]*8; left=[0]*8; nextload=[0]*8; ready_at=[0]*8
    batch_ready=[None]*8; outstanding=[0]*8; issued_in_batch=[0]*8; bstart=[0]*8
    state=['start']*8
    greedy=[None]*4
    q=deque(); inflight=deque()  # (time, count)
    nin=0; l2free=0.0; lsufree=0.0; t=0; hits=miss=0; rr=0
    data_events={}  # time(int) -> list of (w,k)
    def begin_batch(w, now):
        n=min(32, lpp-pos[w]); left[w]=n; nextload[w]=pos[w]; batch_ready[w]=[0.0]*n
        outstanding[w]=n; issued_in_batch[w]=0; bstart[w]=now; state[w]='issue'
    for w in range(8): begin_batch(w,0)
    finished=0
    while finished<8:
        # data returns
        ev=data_events.pop(t,None)
        if ev:
            for (w,k,r,lines) in ev:
                nin-=lines
                br=batch_ready[w]; br[k]=max(br[k],r); outstanding[w]-=1
                if outstanding[w]==0:
                    c=bstart[w]
                    for a in br: c=max(c,a)+8
                    n=len(br); pos[w]+=n
                    if pos[w]>=lpp:
                        pos[w]=0; done[w]+=1; c+=8
                    if done[w]>=passes: state[w]='done'; finished+=1
                    else: state[w]='wait'; ready_at[w]=c
        for w in range(8):
            if state[w]=='wait' and ready_at[w]<=t: begin_batch(w,t)
        # schedulers take turns
        for i in range(4):
            s=(rr+i)%4
            if len(q)>=Q: break
            cand=[w for w in (s,s+4) if state[w]=='issue' and left[w]>0]
            if not cand: continue
            w = greedy[s] if greedy[s] in cand else min(cand)
            greedy[s]=w
            q.append((w, nextload[w], issued_in_batch[w])); nextload[w]+=1; issued_in_batch[w]+=1; left[w]-=1
        rr=(rr+1)%4
        # LSU
        if q and lsufree<=t:
            w,ld,k=q[0]
            lines=[16*ld+2*w, 16*ld+2*w+1]
            # check misses without updating first
            s0=[cache[(l^(l>>2)^(l>>4))&(sets-1)] for l in lines]
            need=sum(1 for l,sx in zip(lines,s0) if l not in sx)
            if nin+need<=M:
                q.popleft(); lsufree=t+2
                r=t+28; m=0
                for l in lines:
                    if access(l): hits+=1
                    else:
                        miss+=1; m+=1
                        st=max(t,l2free); l2free=st+svc; r=max(r, st+svc+193)
                nin+=m
                rt=int(r)+1 if r>int(r) else int(r)
                data_events.setdefault(max(rt,t+1),[]).append((w,k,r,m))
        t+=1
    tot=hits+miss
    return miss/tot, 128*tot/t*1.38*80
def main():
    p = argparse.ArgumentParser(description="gpu-cache's warps on a V100 SM, cycle by cycle, greedy-then-oldest")
    p.add_argument("--kib", default="148,236")
    p.add_argument("--passes", type=int, default=60)
    p.add_argument("--queue", default="1,4,16", help="LSU queue depths (loads), comma-separated")
    p.add_argument("--in-flight", type=int, default=28, help="L1 misses in flight (lines); 28 = C_mem 115 sectors")
    a = p.parse_args()
    for kib in map(int, a.kib.split(",")):
        for q in map(int, a.queue.split(",")):
            m, g = run(kib, a.passes, Q=q, M=a.in_flight)
            print(f"{kib:4d} KiB  queue {q:2d}  in flight {a.in_flight:4d}: miss {m:.3f} {g:6.0f} GB/s", flush=True)


if __name__ == "__main__":
    main()
