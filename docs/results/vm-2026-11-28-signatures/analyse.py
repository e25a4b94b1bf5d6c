#!/usr/bin/env python3
"""The signature study's analysis: reads the counts (count.sh's CSV) and, for a rule set,
prints the separation matrix of every lab, the margins of the honest variants, the cheats
caught and missed, and the cases the verdicts need.

    analyse.py COUNTS.csv[.gz] [--rules NAME] [--sms 1|132|h100] [--classes CHEATS_DIR]
               [--section all|rules|good|grid|matrix|cheats|essential|window|cost]

--sms h100: the emulator as issue 37 item 5 will have it, 132 SMs, for the labs whose grids follow
the SM count (00's grid-stride variant, 08, 09), and the 1-SM counts for the others (the same).

A rule is (metric, direction, tolerance, slack): with r the reference solution's value on the
same case and v the candidate's,
    cost     v <= r * (1 + tol) + slack               (upper bound)
    feature  v >= r / (1 + tol) - slack, where r > 0   (lower bound)
    shape    both                                      (two-sided)
A rule only judges a case where r >= floor (the metric's small-case floor, METRICS below)."""
import argparse
import collections
import csv
import gzip
import math

# ------------------------------------------------------------------------------- metrics

def ratio(a, b):
    return a / b if b else None


METRICS = {
    # name: (function of the counters, floor: the reference value below which the rule is not applied)
    'gld_inst': (lambda c: c['gld_inst'], 0),
    'gst_inst': (lambda c: c['gst_inst'], 0),
    'gld_sectors': (lambda c: c['gld_sectors'], 0),
    'gst_sectors': (lambda c: c['gst_sectors'], 0),
    'gatom_inst': (lambda c: c['gatom_inst'], 0),
    'shared_atom_inst': (lambda c: c.get('shared_atom_inst', 0), 0),
    'shared_atom_lanes': (lambda c: c.get('shared_atom_lanes'), 0),
    'shfl_inst': (lambda c: c['shfl_inst'], 0),
    'syncwarp_inst': (lambda c: c['syncwarp_inst'], 0),
    'vote_inst': (lambda c: c.get('vote_inst', 0), 0),
    'device_launches': (lambda c: c['device_launches'], 0),
    'kernels_launched': (lambda c: c['kernels_launched'], 0),
    'threads_launched': (lambda c: c['threads_launched'], 0),
    'block_barriers_max': (lambda c: c['block_barriers_max'], 0),
    'max_thread_reads': (lambda c: c['max_thread_reads'], 0),
    'max_thread_writes': (lambda c: c['max_thread_writes'], 0),
    'wide_load_sites': (lambda c: c['wide_load_sites'], 0),
    'shared_bank_conflicts': (lambda c: c['shared_bank_conflicts'], 0),
    # all warp-level memory instructions, global and shared: the tree's steps wherever it lives
    'mem_inst': (lambda c: c['gld_inst'] + c['gst_inst'] + c['shared_ld_inst'] + c['shared_st_inst'], 0),
    # lanes per warp-level access (global and shared): divergence
    'lane_share': (lambda c: ratio(c['active_lanes'], c['lane_slots']), None),
    # bytes per global load sector: coalescing of the loads (1.0: every fetched byte used)
    'ld_eff': (lambda c: ratio(c['gld_bytes'], 32.0 * c['gld_sectors']), None),
    # bytes per global access: the work spread over the lanes (the checker's bpi)
    'bpi': (lambda c: ratio(c['gld_bytes'] + c['gst_bytes'], c['gld_inst'] + c['gst_inst']), None),
    # the accesses that cost more than the fewest transactions: extra global sectors and bank conflicts
    'excess': (lambda c: max(0, c['gld_sectors'] - math.ceil(c['gld_bytes'] / 32)) +
               max(0, c['gst_sectors'] - math.ceil(c['gst_bytes'] / 32)) + c['shared_bank_conflicts'], 0),
    # global loads issued in barrier intervals that also load shared memory (prototype counter)
    'overlap_share': (lambda c: ratio(c.get('gld_overlap_inst', 0), c['gld_inst']), None),
    'gld_overlap_inst': (lambda c: c.get('gld_overlap_inst', 0), 0),
    # 16-byte loads of a warp from another site than its previous one (prototype counter)
    'wide_switches': (lambda c: c.get('wide_load_switches', 0), 0),
    'wide_switch_share': (lambda c: ratio(c.get('wide_load_switches', 0), c['gld_inst'])
                          if 'wide_load_switches' in c else None, None),
    # launches by the host alone (the device's are counted in device_launches)
    'host_launches': (lambda c: c['kernels_launched'] - c['device_launches'], 0),
    # address span per byte moved, global and shared (prototype counters): 1 for a warp on
    # consecutive words, 2s for lanes 2s words apart, whatever memory the tree lives in
    'spread': (lambda c: ratio(c.get('span_bytes', 0), c['gld_bytes'] + c['gst_bytes'] + c.get('shared_bytes', 0))
               if 'span_bytes' in c else None, None),
    # the same, global accesses alone: a warp's footprint in the matrices (prototype counter)
    'gspread': (lambda c: ratio(c.get('gspan_bytes', 0), c['gld_bytes'] + c['gst_bytes'])
                if 'gspan_bytes' in c else None, None),
    # transactions past the fewest the bytes need, over all transactions (prototype counters)
    'waste': (lambda c: ratio(c.get('gsector_excess', 0) + c['shared_bank_conflicts'],
                              c['gld_sectors'] + c['gst_sectors'] + c.get('shared_wavefronts', 0))
              if 'gsector_excess' in c else None, None),
    'shared_wavefronts': (lambda c: c.get('shared_wavefronts'), 0),
    # shared wavefronts per shared access: how many words a warp's shared access brings in
    'wavefronts_per_shared': (lambda c: ratio(c.get('shared_wavefronts', 0), c['shared_ld_inst'] + c['shared_st_inst'])
                              if 'shared_wavefronts' in c else None, None),
    # the share of the global loads made by grids launched from the device (prototype counter)
    'device_gld_share': (lambda c: ratio(c.get('device_gld_inst', 0), c['gld_inst']) if 'device_gld_inst' in c
                         else None, None),
    # warp-level accesses per thread launched: the work per thread
    'inst_per_thread': (lambda c: ratio(c['gld_inst'] + c['gst_inst'] + c['shared_ld_inst'] + c['shared_st_inst'],
                                        c['threads_launched']), None),
}

# ------------------------------------------------------------------------------- rule sets
# A rule: metric, direction (cost, feature, shape, or abs: |v - r| <= tol, for shares), tol,
# slack (added to the upper limit, taken from the lower), and optionally
#   warps: slack in warps launched (the reference's threads / 32) on top of slack
#   floor: the case is judged only where the reference made at least this many warp-level
#          accesses (small cases, where a guard or a zero-fill is most of the work)
#   rungs: only for these rungs (a manifest parameter); skip: never for these rungs
def R(metric, direction, tol, slack=0, **kw):
    rule = dict(metric=metric, direction=direction, tol=tol, slack=slack)
    rule.update(kw)
    return rule


FREE_SHAPE = ['00', '01']  # labs whose launch shape is the student's: no thread-count or span rule
TREES = ['03', '04', '05', '06', '07']  # labs whose rungs are trees over one block's data

RULES = {
    'recommended': [
        # cost: an upper bound; fewer, fuller accesses are no cheat
        R('gld_sectors', 'cost', 0.25, 32, warps=0.25),
        R('gst_sectors', 'cost', 0.25, 32, warps=0.25),
        R('gld_inst', 'cost', 0.6, 8, warps=0.25),
        R('gst_inst', 'cost', 0.6, 8, warps=0.25),
        R('gatom_inst', 'cost', 0.25, 2),
        R('shared_atom_lanes', 'cost', 0.25, 2, warps=1),
        R('max_thread_reads', 'cost', 0.5, 4),
        # the launches: their number and shape
        R('host_launches', 'shape', 0.0, 0),
        R('device_launches', 'feature', 0.0, 0),
        R('device_gld_share', 'feature', 0.5, 0.0),
        R('threads_launched', 'shape', 0.0, 0, skip_labs=FREE_SHAPE),
        R('threads_launched', 'shape', 3.0, 0, labs=FREE_SHAPE),
        # warp and block synchronization: as many as the pattern's (none where it has none)
        R('block_barriers_max', 'shape', 0.25, 2, skip_labs=['08']),
        R('shfl_inst', 'shape', 2.0, 0, skip_labs=['08']),
        R('syncwarp_inst', 'shape', 2.0, 0, skip_labs=['08']),
        R('vote_inst', 'shape', 2.0, 0, skip_labs=['08']),
        # the access pattern, wherever the data lives
        R('lane_share', 'shape', 1.0, 0.0, floor=256, labs=['03', '07']),
        R('spread', 'shape', 1.0, 0.0, floor=256, labs=TREES),
        R('gspread', 'shape', 0.5, 0.0, floor=256, labs=['09']),
        # loads in flight, and overlap of loads with the math
        R('wide_load_sites', 'shape', 0.0, 0, skip=['atomic_total']),
        R('wide_load_sites', 'feature', 1.0, 0, rungs=['atomic_total']),
        R('wide_switch_share', 'feature', 1.0, 0.0, min_ref=0.75),
        R('overlap_share', 'abs', 0.25),
    ],
}


def limits(rule, r, ref):
    """(lo, hi) for the reference value r (ref: the reference's counters), None for no bound."""
    d, tol, slack = rule['direction'], rule['tol'], rule['slack']
    if rule.get('warps'):
        slack += rule['warps'] * ref['threads_launched'] / 32.0
    if d == 'abs':
        return r - tol, r + tol
    hi = r * (1 + tol) + slack if d in ('cost', 'shape') else None
    lo = r / (1 + tol) - slack if d in ('feature', 'shape') and r > 0 else None
    return lo, hi


def applies(rule, rung, v, r, ref, lab=''):
    if v is None or r is None:
        return False
    if rule.get('labs') and lab[:2] not in rule['labs']:
        return False
    if rule.get('skip_labs') and lab[:2] in rule['skip_labs']:
        return False
    if rule.get('min_ref') is not None and r < rule['min_ref']:
        return False
    if rule.get('rungs') and rung not in rule['rungs']:
        return False
    if rule.get('skip') and rung in rule['skip']:
        return False
    return ref['lane_slots'] / 32 >= rule.get('floor', 0)


def closeness(rule, v, r, ref):
    """How near v is to its limits: above 1 fails."""
    lo, hi = limits(rule, r, ref)
    near = 0.0
    if hi is not None:
        near = max(near, v / hi if hi > 0 else (0.0 if v <= 0 else float('inf')))
    if lo is not None:
        near = max(near, lo / v if v > 0 else (0.0 if lo <= 0 else float('inf')))
    return near


def judge(rule, rung, v, r, ref, lab=''):
    """None when the rule holds (or does not apply), else (how far past its limit, side)."""
    if not applies(rule, rung, v, r, ref, lab):
        return None
    q = closeness(rule, v, r, ref)
    return (q, 'off') if q > 1.0 else None

# ------------------------------------------------------------------------------- data


def load(path):
    rows = []
    for rec in csv.reader(gzip.open(path, 'rt') if path.endswith('.gz') else open(path)):
        label, lab, rung, ran, case, size, sec, status, correct, inputs, today, counters = rec[:12]
        c = {k: int(v) for k, v in (kv.split('=') for kv in counters.split())} if counters else {}
        who, sms = label.split('@')
        kind, _, name = who.partition(':')
        rows.append(dict(kind=kind, name=name or rung, lab=lab, rung=rung, sms=sms[3:], size=size,
                         seconds=float(sec), ok=status == 'ok' and correct == '1' and inputs == '1',
                         status=status, today=today == '1', c=c))
    return rows


# The cases today's checker counts (checker/cases.c, the *_EMU tables): its pattern check sees
# only these; the large (fast) cases run in a build without counts.
DIAGNOSED = {
    'reduce': {'n=1 block=512', 'n=1000 block=64', 'n=2088 block=64', 'n=5000 block=1024', 'n=9001 block=256',
               'n=16384 block=512'},
    'float': {'n=1 block=1024', 'n=1000 block=64', 'n=2088 block=64', 'n=9001 block=256', 'n=16384 block=1024'},
    'matmul': {'m=1 k=1 n=1', 'm=33 k=17 n=45', 'm=40 k=33 n=100', 'm=64 k=64 n=64'},
    'top': {'m=1 k=1 n=1', 'm=33 k=17 n=45', 'm=40 k=33 n=100', 'm=129 k=100 n=67', 'm=256 k=64 n=256'},
    'sum': {'n=1', 'n=3', 'n=1001', 'n=4099', 'n=70001', 'n=65541'},
}


def diagnosed_today(lab, size):
    table = {'01': 'matmul', '02': 'matmul', '07': 'float', '08': 'sum', '09': 'top'}.get(lab[:2], 'reduce')
    return size in DIAGNOSED[table]


LEGACY = {('05-reduce-warp-unrolling', r) for r in ('unroll_warps8', 'complete_unroll8', 'template8')}


def values(c):
    return {m: f(c) for m, (f, _) in METRICS.items()} if c else {}


class Study:
    def __init__(self, rows, rules, sms):
        self.rules = rules
        if sms == 'h100':  # the emulator as issue 37 item 5 will have it: 132 SMs where the SM count matters
            at132 = {r['lab'] for r in rows if r['sms'] == '132'}
            self.rows = [r for r in rows if r['sms'] == ('132' if r['lab'] in at132 else '1')]
        else:
            self.rows = [r for r in rows if r['sms'] == sms]
        self.ref = {}
        self.ref_counters = {}
        for r in self.rows:
            if r['kind'] == 'solution':
                self.ref[(r['lab'], r['rung'], r['size'])] = values(r['c'])
                self.ref_counters[(r['lab'], r['rung'], r['size'])] = r['c']
        self.rungs = collections.OrderedDict()
        for r in self.rows:
            if r['kind'] == 'solution':
                self.rungs.setdefault(r['lab'], [])
                if r['rung'] not in self.rungs[r['lab']]:
                    self.rungs[r['lab']].append(r['rung'])

    def task_of(self, lab, rung):
        return 'hello' if rung == 'nested_hello' else 'mat_add' if rung == 'mat_add' else 'main'

    def verdicts(self, cand_rows, rung):
        """Per case of the candidate judged as rung: [(case, rule, margin, side, v, r)]."""
        out = []
        for row in cand_rows:
            ref = self.ref.get((row['lab'], rung, row['size']))
            if ref is None or not row['c']:
                continue
            v = values(row['c'])
            rc = self.ref_counters[(row['lab'], rung, row['size'])]
            for rule in self.rules:
                m = rule['metric']
                got = judge(rule, rung, v[m], ref[m], rc, row['lab'])
                if got:
                    out.append((row['size'], rule, got[0], got[1], v[m], ref[m]))
        return out

    def candidates(self, kinds):
        groups = collections.OrderedDict()
        for r in self.rows:
            if r['kind'] in kinds:
                groups.setdefault((r['kind'], r['name'], r['lab'], r['rung']), []).append(r)
        return groups


def fmt(x):
    if x is None:
        return '-'
    if isinstance(x, float) and x != int(x):
        return '%.3g' % x
    return '%d' % x

# ------------------------------------------------------------------------------- sections


def section_rules(study, args):
    print('## Rule set `%s` (sms=%s)\n' % (args.rules, args.sms))
    print('| metric | direction | tolerance | slack | floor (warp accesses) | rungs |')
    print('| --- | --- | --- | --- | --- | --- |')
    for r in study.rules:
        slack = fmt(r['slack']) + (' + %s/warp' % fmt(r['warps']) if r.get('warps') else '')
        only = ', '.join(r.get('rungs', [])) or ('all but ' + ', '.join(r['skip']) if r.get('skip') else 'all')
        if r.get('labs'):
            only += ' (labs %s)' % ', '.join(r['labs'])
        if r.get('skip_labs'):
            only += ' (not labs %s)' % ', '.join(r['skip_labs'])
        if r.get('min_ref') is not None:
            only += ' (where the reference is at least %s)' % fmt(r['min_ref'])
        print('| %s | %s | %s | %s | %s | %s |' % (r['metric'], r['direction'], fmt(r['tol']), slack,
                                                   fmt(r.get('floor', 0)), only))
    print()


def section_good(study, args):
    """The honest variants: every rule's worst case (how close to its limit: v / limit)."""
    print('## Honest variants (known-good: good; this study: good2), sms=%s\n' % args.sms)
    print('The rules each variant comes closest to, on the case where it comes closest, where its value '
          'differs from the reference\'s (v/limit for an upper bound, limit/v for a lower one; above 1.00 '
          'fails; shown from 0.50).\n')
    print('| variant | rung | passes | closest rules (metric: v vs r, x of limit, case) |')
    print('| --- | --- | --- | --- |')
    for (kind, name, lab, rung), rows in study.candidates({'good', 'good2'}).items():
        close = []
        for rule in study.rules:
            best = None
            m = rule['metric']
            for row in rows:
                ref = study.ref.get((lab, rung, row['size']))
                if ref is None:
                    continue
                rc = study.ref_counters[(lab, rung, row['size'])]
                v = values(row['c'])
                if not applies(rule, rung, v[m], ref[m], rc, lab) or v[m] == ref[m]:
                    continue
                q = closeness(rule, v[m], ref[m], rc)
                if best is None or q > best[0]:
                    best = (q, v[m], ref[m], row['size'])
            if best and best[0] > 0.5:
                close.append((best[0], '%s: %s vs %s, x%.2f, %s' % (m, fmt(best[1]), fmt(best[2]), best[0],
                                                                      best[3])))
        close.sort(reverse=True)
        failed = [c for c in close if c[0] > 1.0]
        print('| %s%s | %s | %s | %s |' % (name, ' (good2)' if kind == 'good2' else '', rung,
                                           'FAILS' if failed else 'yes', '; '.join(c[1] for c in close[:3]) or '-'))
    print()


def best_separator(verd):
    """The rule that fails by the most, and its case."""
    best = {}
    for size, rule, margin, side, v, r in verd:
        m = rule['metric']
        if m not in best or margin > best[m][0]:
            best[m] = (margin, side, v, r, size)
    return sorted(best.items(), key=lambda kv: -kv[1][0])


def section_matrix(study, args):
    print('## Separation matrix, sms=%s\n' % args.sms)
    print('Row: the solution of rung A put in place of rung B. Cell: the counters that fail it, '
          'strongest first (x: how far past the limit; v/r: A\'s value against B\'s on that case).\n')
    sols = collections.defaultdict(list)
    for r in study.rows:
        if r['kind'] == 'solution':
            sols[(r['lab'], r['rung'])].append(r)
    unseparated = []
    for lab, rungs in study.rungs.items():
        print('### %s\n' % lab)
        print('| A in place of B | separated by |')
        print('| --- | --- |')
        for a in rungs:
            for b in rungs:
                if a == b:
                    continue
                if study.task_of(lab, a) != study.task_of(lab, b):
                    print('| %s -> %s | (another task: does not build) |' % (a, b))
                    continue
                verd = study.verdicts(sols[(lab, a)], b)
                seps = best_separator(verd)
                extra = ''
                if (lab, a) in LEGACY and (lab, b) not in LEGACY:
                    extra = ' (also warp-sync: the volatile last warp in a warp-safe rung)'
                if not seps:
                    unseparated.append((lab, a, b))
                    print('| %s -> %s | **none**%s |' % (a, b, extra))
                else:
                    cells = ['%s x%.2f (%s/%s, %s)' % (m, g[0], fmt(g[2]), fmt(g[3]), g[4]) for m, g in seps[:4]]
                    print('| %s -> %s | %s%s |' % (a, b, '; '.join(cells), extra))
        print()
    print('Pairs not separated: %d: %s\n' % (len(unseparated), ', '.join('%s %s->%s' % u for u in unseparated)))


SHORT = {'gld_sectors': 'ld-sect', 'gst_sectors': 'st-sect', 'gld_inst': 'ld-inst', 'gst_inst': 'st-inst',
         'gatom_inst': 'atom', 'shared_atom_inst': 's-atom', 'shared_atom_lanes': 's-atom', 'max_thread_reads': 'reads/thr',
         'host_launches': 'launches', 'device_launches': 'dev-launch', 'device_gld_share': 'dev-work',
         'threads_launched': 'threads', 'block_barriers_max': 'barriers', 'shfl_inst': 'shfl',
         'syncwarp_inst': 'syncwarp', 'vote_inst': 'vote', 'lane_share': 'lanes', 'spread': 'spread',
         'gspread': 'gspread', 'wide_load_sites': 'sites', 'wide_switch_share': 'switches',
         'overlap_share': 'overlap'}


def section_grid(study, args):
    """The separation matrix as a grid per lab: row A (the solution put in place), column B (the
    rung it stands for); each cell the counter that fails it by the most, and by how much."""
    print('## Separation grids, sms=%s\n' % args.sms)
    print('Row: the rung whose solution is put in place; column: the rung it stands for. Cell: the '
          'counter that fails it by the most, x how far past its limit (x inf: the rung has none of it, '
          'or it has none of the rung\'s), and how many counters fail it in all.\n')
    sols = collections.defaultdict(list)
    for r in study.rows:
        if r['kind'] == 'solution':
            sols[(r['lab'], r['rung'])].append(r)
    for lab, rungs in study.rungs.items():
        if len(rungs) < 2:
            continue
        print('**%s**\n' % lab)
        print('| A \\ B | ' + ' | '.join(rungs) + ' |')
        print('| --- ' * (len(rungs) + 1) + '|')
        for a in rungs:
            cells = []
            for b in rungs:
                if a == b:
                    cells.append('')
                elif study.task_of(lab, a) != study.task_of(lab, b):
                    cells.append('(task)')
                else:
                    seps = best_separator(study.verdicts(sols[(lab, a)], b))
                    if not seps:
                        cells.append('**none**')
                    else:
                        m, g = seps[0]
                        x = 'inf' if g[0] == float('inf') else '%.1f' % g[0]
                        cells.append('%s x%s (%d)' % (SHORT.get(m, m), x, len(seps)))
            print('| %s | %s |' % (a, ' | '.join(cells)))
        print()


def section_cheats(study, args):
    print('## Cheats, sms=%s\n' % args.sms)
    print('| cheat | rung | class | today | results | signature |')
    print('| --- | --- | --- | --- | --- | --- |')
    for (kind, name, lab, rung), rows in study.candidates({'cheat', 'bad', 'borderline'}).items():
        ok = all(r['ok'] for r in rows)
        today = any(r['today'] for r in rows if r['ok'] and diagnosed_today(lab, r['size']))
        bad_rows = [r for r in rows if not r['ok']]
        verd = study.verdicts([r for r in rows if r['ok']], rung)
        seps = best_separator(verd)
        res = 'right' if ok else 'WRONG/stopped on %d case(s): %s' % (len(bad_rows), bad_rows[0]['status'][:40])
        sig = '; '.join('%s x%.2f (%s/%s, %s)' % (m, g[0], fmt(g[2]), fmt(g[3]), g[4]) for m, g in seps[:3])
        print('| %s%s | %s | %s | %s | %s | %s |' % (name, ' (existing)' if kind == 'bad' else '', rung,
                                                    klass(name), 'caught' if today else 'passes', res,
                                                    ('**caught**: ' + sig) if seps else '**MISSED**'))
    print()


def klass(name):
    return CLASSES.get(name, '')


CLASSES = {}


def section_cost(study, args):
    """Which cases each verdict needs: the smallest set of case sizes that still separates every
    separated pair and catches every caught cheat (greedy set cover)."""
    print('## Cases needed, sms=%s\n' % args.sms)
    sols = collections.defaultdict(list)
    for r in study.rows:
        if r['kind'] == 'solution':
            sols[(r['lab'], r['rung'])].append(r)
    for lab, rungs in study.rungs.items():
        needs = []  # each: the set of sizes that would each catch it on their own
        for a in rungs:
            for b in rungs:
                if a != b and study.task_of(lab, a) == study.task_of(lab, b):
                    s = {v[0] for v in study.verdicts(sols[(lab, a)], b)}
                    if s:
                        needs.append(('%s->%s' % (a, b), s))
        for (kind, name, l, rung), rows in study.candidates({'cheat', 'bad'}).items():
            if l == lab:
                s = {v[0] for v in study.verdicts([r for r in rows if r['ok']], rung)}
                if s:
                    needs.append((name, s))
        chosen, left = [], list(needs)
        while left:
            count = collections.Counter(z for _, s in left for z in s)
            z = count.most_common(1)[0][0]
            chosen.append(z)
            left = [(n, s) for n, s in left if z not in s]
        only = sorted({next(iter(s)) for n, s in needs if len(s) == 1})
        print('- %s: %d verdicts, %d case(s) suffice: %s; cases that alone catch one: %s' % (
            lab, len(needs), len(chosen), ', '.join(chosen), ', '.join(only) or '-'))
    print()


def section_essential(study, args):
    """For each rule: the verdicts (separated pairs, caught cheats) it alone makes."""
    print('## Rules that alone make a verdict, sms=%s\n' % args.sms)
    sols = collections.defaultdict(list)
    for r in study.rows:
        if r['kind'] == 'solution':
            sols[(r['lab'], r['rung'])].append(r)
    alone = collections.defaultdict(list)
    for lab, rungs in study.rungs.items():
        for a in rungs:
            for b in rungs:
                if a != b and study.task_of(lab, a) == study.task_of(lab, b):
                    ms = {v[1]['metric'] for v in study.verdicts(sols[(lab, a)], b)}
                    if len(ms) == 1:
                        alone[ms.pop()].append('%s %s->%s' % (lab[:2], a, b))
    for (kind, name, lab, rung), rows in study.candidates({'cheat', 'bad'}).items():
        ms = {v[1]['metric'] for v in study.verdicts([r for r in rows if r['ok']], rung)}
        if len(ms) == 1:
            alone[ms.pop()].append(name)
    for r in study.rules:
        m = r['metric']
        print('- %s: %s' % (m, ', '.join(alone.get(m, [])) or '-'))
    print()


def needed_tol(rule, v, r, ref):
    """The least tolerance at which v passes the rule (its slack kept): 0 when it passes at 0."""
    d, slack = rule['direction'], rule['slack'] + rule.get('warps', 0) * ref['threads_launched'] / 32.0
    if d == 'abs':
        return abs(v - r)
    need = 0.0
    if d in ('cost', 'shape') and v > r + slack:
        need = max(need, (v - slack) / r - 1 if r > 0 else float('inf'))
    if d in ('feature', 'shape') and r > 0 and v < r - slack:
        need = max(need, r / (v + slack) - 1 if v + slack > 0 else float('inf'))
    return need


def section_window(study, args):
    """Per rule: the tolerance the honest variants need, and the tolerance past which a verdict
    this rule makes alone is lost (the window the tolerance may move in)."""
    print('## Tolerance windows, sms=%s\n' % args.sms)
    print('| metric | rungs | tolerance set | honest variants need | lost past | lost first (verdict made by this rule alone) |')
    print('| --- | --- | --- | --- | --- | --- |')
    sols = collections.defaultdict(list)
    for r in study.rows:
        if r['kind'] == 'solution':
            sols[(r['lab'], r['rung'])].append(r)
    verdicts = []  # (name, rows, rung)
    for lab, rungs in study.rungs.items():
        for a in rungs:
            for b in rungs:
                if a != b and study.task_of(lab, a) == study.task_of(lab, b):
                    verdicts.append(('%s %s->%s' % (lab[:2], a, b), sols[(lab, a)], b))
    for (kind, name, lab, rung), rows in study.candidates({'cheat', 'bad'}).items():
        verdicts.append((name, [r for r in rows if r['ok']], rung))
    honest = study.candidates({'good', 'good2'})
    for rule in study.rules:
        m = rule['metric']
        need, who = 0.0, '-'
        for (kind, name, lab, rung), rows in honest.items():
            for row in rows:
                ref = study.ref.get((lab, rung, row['size']))
                if ref is None:
                    continue
                rc = study.ref_counters[(lab, rung, row['size'])]
                v = values(row['c'])
                if applies(rule, rung, v[m], ref[m], rc, lab):
                    t = needed_tol(rule, v[m], ref[m], rc)
                    if t > need:
                        need, who = t, name
        lost, first = float('inf'), '-'
        for name, rows, rung in verdicts:
            verd = study.verdicts(rows, rung)
            if {x[1]['metric'] for x in verd} != {m} or not verd:
                continue
            # the largest tolerance at which this rule still catches it, over its cases
            best, applied = 0.0, False
            for row in rows:
                ref = study.ref.get((row['lab'], rung, row['size']))
                if ref is None:
                    continue
                rc = study.ref_counters[(row['lab'], rung, row['size'])]
                v = values(row['c'])
                if applies(rule, rung, v[m], ref[m], rc, row['lab']):
                    applied = True
                    best = max(best, needed_tol(rule, v[m], ref[m], rc))
            if applied and best < lost:
                lost, first = best, name
        scope = ', '.join(rule.get('rungs', [])) or 'all'
        if rule.get('labs'):
            scope += ' (labs %s)' % ', '.join(rule['labs'])
        if rule.get('skip_labs'):
            scope += ' (not %s)' % ', '.join(rule['skip_labs'])
        print('| %s | %s | %s | %s (%s) | %s | %s |' % (m, scope, fmt(rule['tol']), fmt(need), who,
                                                     fmt(lost) if lost < float('inf') else '-', first))
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('counts')
    ap.add_argument('--rules', default='recommended')
    ap.add_argument('--sms', default='1')
    ap.add_argument('--section', default='all')
    ap.add_argument('--classes', default=None, help='the folder of the cheats (for their # class: lines)')
    args = ap.parse_args()
    if args.classes:
        import glob
        import os
        for p in glob.glob(os.path.join(args.classes, '*.patch')):
            for line in open(p):
                if line.startswith('# class: '):
                    CLASSES[os.path.basename(p)[:-6]] = line[9:].strip()
    study = Study(load(args.counts), RULES[args.rules], args.sms)
    for name, fn in (('rules', section_rules), ('good', section_good), ('grid', section_grid),
                     ('matrix', section_matrix),
                     ('cheats', section_cheats), ('essential', section_essential), ('window', section_window),
                     ('cost', section_cost)):
        if args.section in ('all', name):
            fn(study, args)


if __name__ == '__main__':
    main()
