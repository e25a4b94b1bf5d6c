# Register-bank clashes of the FFMAs in a kernel's main loop (the longest backward branch), from
# `cuobjdump -sass` text: an FFMA clashes when two of the source registers it must read from the
# register file (not from the reuse cache: same slot, marked .reuse on the previous FFMA) share a
# bank (register number mod 2); "triple" when all three do. A model, checked against the H100:
# fewer clashes went with the faster variant in probe-variants-*.log.
#   python3 sass_bank_clashes.py kernel.sass
import re,sys
lines=[l for l in open(sys.argv[1]) if re.search(r'/\*[0-9a-f]{4}\*/',l)]
ins=[]
for l in lines:
    m=re.search(r'/\*([0-9a-f]{4})\*/\s+(.*?);',l)
    ins.append((int(m.group(1),16),m.group(2)))
best=None
for addr,t in ins:
    tm=re.search(r'BRA.*0x([0-9a-f]+)',t)
    if tm:
        tgt=int(tm.group(1),16)
        if tgt<addr and (best is None or addr-tgt>best[1]-best[0]): best=(tgt,addr)
n=c2=c3=0; prev=[None]*3
for addr,t in ins:
    if not (best[0]<=addr<=best[1]): continue
    m=re.match(r'(?:@!?P\d\s+)?(\S+)\s+(.*)',t)
    op,args=m.group(1),m.group(2)
    ops=[o.strip() for o in args.split(',')]
    if not op.startswith('FFMA') or len(ops)!=4: prev=[None]*3; continue
    n+=1; reads=[]
    for i,s in enumerate(ops[1:]):
        r=s.split('.')[0]
        if prev[i]==r: continue
        if r.startswith('R') and r!='RZ': reads.append(int(r[1:])%2)
    if len(reads)-len(set(reads))>0: c2+=1
    if len(reads)==3 and len(set(reads))==1: c3+=1
    prev=[s.split('.')[0] if s.endswith('reuse') else None for s in ops[1:]]
print(f"loop: {n} FFMA, pair {c2} ({c2/n:.2f}), triple {c3} ({c3/n:.3f})")
