#!/usr/bin/env python3
"""mutate_scenarios.py -- a mutated-scenario run of the LLM, MIG and plan
scenarios (issue 26's judgement): every key of scenarios/llm-*.ini,
case2-llm-*.ini and case4-mig-*.ini, and every option of the plan
examples of doc/plan.md, is broken in the ways users break it, and
fleetsim must refuse each break clearly or run it soundly.

Mutants, per `key = value` line: the key deleted, an empty value, the
first number made negative, zero, nan, inf or 1e300, its unit swapped
(s <-> tokens, /s <-> /h), a nearby-typo name (GPU, model, profile,
instance), the line duplicated, a contradictory key added beside it;
per `mig =` line also layouts with empty, duplicate and oversized terms;
per LLM key (tokens_in, tokens_out, an llm() service, mig_profile) the
nonsense of issue 26 (LLM_BAD: prompts beyond the context, token counts
with a time unit, a model that does not fit, tp=3, max_batch=0).
Per plan option: an empty list, a duplicated item, a typo'd name,
negative/NaN/zero SLO bounds.  Each mutant's horizon is cut to at most
10 minutes of simulated time, so that a legitimate run ends in well
under a second of CPU (a mutant of the horizon itself runs with
--max-events 1e6 instead: the default 30 days is refused by the estimate).

Each mutant runs once (`timeout T fleetsim ...`) into a fresh database,
and is classified:
  refused   exit 1 or 2, exactly one line on stderr naming FILE:LINE:KEY
            (a scenario mutant) or the option (a plan option mutant),
            and no run stored (no database, or one with no run);
  accepted  exit 0 and no sanitizer report: printed with its kind so that
            accepted nonsense (nan, inf, negative, empty, typo) is seen;
  finding   anything else: a signal, a timeout (a hang), a sanitizer
            report, a status other than 0/1/2, a refusal of more than one
            line or without file:line, a database holding a run after a
            refusal.

Deterministic: the mutants are generated in a fixed order and, with
--sample N, N of them are drawn with random.Random(--seed).  Usage:

  tests/mutate_scenarios.py --fleetsim ./fleetsim [--sample N] [--seed S]
      [--timeout T] [--kinds nan,inf,...] [--show accepted|finding|all]

Exit status 0 if no mutant is a finding or accepted nonsense, 1 otherwise.
Run it under the sanitizer build (./configure --enable-sanitizers) with
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1.
"""
import argparse
import glob
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUM = re.compile(r'(?<![A-Za-z_.0-9-])(\d+(?:\.\d+)?(?:e[+-]?\d+)?)')
TYPOS = {'A100-80GB': 'A100-80G', 'H100-80GB': 'H100-80G', 'L40S': 'L40',
         'llama-3-8b': 'llama-3-8', 'llama-3-70b': 'llama3-70b',
         '3g.40gb': '3g.40g', '2g.20gb': '2g.20g', '1g.20gb': '1g.2gb',
         '1g.10gb': '1g.10g', 'Standard_NC24ads_A100_v4':
         'Standard_NC24ads_A100_v5', 'bf16': 'bf61', 'fp8': 'fp9'}
# a key and a second key that contradicts it (added beside it)
CONTRA = {'instance': 'gpu = L4', 'gpu': 'instance = aws:p5.4xlarge',
          'count': 'autoscale = target(utilization=0.7, min=1, max=2)',
          'mig': 'sharing = timeslice(n=2)',
          'mig_profile': 'sharing = mps(sm_cap=0.5)',
          'tokens_in': 'arrivals = trace(../traces/sample/'
                       'AzureLLMInferenceTrace_conv.csv, format=azure-llm)',
          'horizon': 'end = 2025-01-01', 'start': 'end = 2025-01-01',
          'slo_ttft': 'slo_p99 = 1ms'}
MIG_BAD = ['', '+', '3g.40gb+', '+3g.40gb', '3g.40gb++2g.20gb',
           '7g.80gb+7g.80gb', '3g.40gb*3', '3g.40gb*0', '3g.40gb*-1',
           '3g.40gb*nan', '1g.10gb*8', '3g.40gb+3g.40gb+3g.40gb',
           '3g.40gb*1e300', '3g.40gb+ +2g.20gb', '7g.80gb+1g.10gb']
# nonsense of the LLM keys issue 26 names: a prompt beyond the context,
# token counts with a time unit, a model that does not fit, TP of 3, an
# empty batch, a custom model whose parameters do not match its shape
LLM_BAD = {'tokens_in': ['const(20000)', 'const(5s)', 'const(-1)',
                         'uniform(min=9000, max=9500)', 'const()'],
           'tokens_out': ['const(0)', 'const(1e9)', 'const(2h)'],
           'service': ['llm(model=llama-3-70b, precision=bf16)',
                       'llm(model=llama-3-8b, precision=bf16, tp=3)',
                       'llm(model=llama-3-8b, precision=bf16, max_batch=0)',
                       'llm(model=llama-3-8b, precision=int3)',
                       'llm(model=llama-3-8b, precision=bf16, '
                       'precision=fp8)', 'llm()', 'llm(model=)'],
           'mig_profile': ['', '7g.80gb', '3g.40gb+2g.20gb', '3g.40gb*2']}
SANITIZER = re.compile(r'AddressSanitizer|LeakSanitizer|runtime error|'
                       r'UndefinedBehaviorSanitizer')
NONSENSE = {'nan', 'inf', 'negative', 'empty', 'typo', 'mig-bad', 'huge',
            'llm-bad'}


def scenario_files():
    pats = ['llm-*.ini', 'case2-llm-*.ini', 'case4-mig-*.ini']
    out = []
    for p in pats:
        out += sorted(glob.glob(os.path.join(SRC, 'scenarios', p)))
    return out


def key_lines(lines):
    """(index, section, key, value) of each key line."""
    sect = ''
    for i, l in enumerate(lines):
        s = l.split(';')[0].strip()
        if s.startswith('['):
            sect = s.strip('[]')
        elif '=' in s:
            k, v = s.split('=', 1)
            yield i, sect, k.strip(), v.strip()


def sub_num(v, new):
    return NUM.sub(new, v, count=1) if NUM.search(v) else None


UNIT_SWAPS = ((r'/s\b', '/h'), (r'/h\b', '/s'), (r'/d\b', '/s'),
              (r'(\d)ms\b', r'\1tokens'), (r'(\d)s\b', r'\1 tokens'),
              (r'(\d)m\b', r'\1s'), (r'(\d)h\b', r'\1s'),
              (r'(\d)d\b', r'\1h'))


def unit_swap(v):
    """v with its first unit swapped (a rate per second for one per hour,
    a duration for a token count), or a time unit put on a bare number
    (a token count in seconds)."""
    for pat, rep in UNIT_SWAPS:
        if re.search(pat, v):
            return re.sub(pat, rep, v, count=1)
    m = NUM.search(v)
    return v[:m.end()] + 's' + v[m.end():] if m else None


def value_mutants(key, v):
    """(kind, new value or None to delete) of one key's value."""
    yield 'delete', None
    yield 'empty', ''
    # each number of the value in turn (rate=, sigma=, high_for=, ...)
    for m in NUM.finditer(v):
        for kind, rep in (('negative', '-' + m.group(1)), ('zero', '0'),
                          ('nan', 'nan'), ('inf', 'inf'),
                          ('huge', '1e300')):
            yield kind, v[:m.start()] + rep + v[m.end():]
    nv = unit_swap(v)
    if nv:
        yield 'unit', nv
    for a, b in TYPOS.items():
        if a in v:
            yield 'typo', v.replace(a, b, 1)
            break
    if key == 'mig':
        for m in MIG_BAD:
            yield 'mig-bad', m
    for m in LLM_BAD.get(key, []):
        if key != 'service' or v.startswith('llm('):
            yield 'llm-bad', m


def scenario_mutants():
    for path in scenario_files():
        lines = open(path).read().split('\n')
        name = os.path.basename(path)
        for i, sect, key, v in key_lines(lines):
            for kind, nv in value_mutants(key, v):
                new = list(lines)
                new[i] = '' if nv is None else '%s = %s' % (key, nv)
                yield name, i + 1, sect, key, kind, new
            new = list(lines)
            new.insert(i + 1, lines[i])
            yield name, i + 1, sect, key, 'dupkey', new
            if key in CONTRA:
                new = list(lines)
                new.insert(i + 1, CONTRA[key])
                yield name, i + 1, sect, key, 'contra', new


PLAN = [('llm-gpu-choice.ini',
         ['--slo', 'ttft_p99<=500ms,tpot_p99<=50ms',
          '--gpus', 'A100-80GB,L40S', '--precision', 'bf16,fp8',
          '--purchase', 'on-demand,reserved']),
        ('case4-mig-sliced.ini',
         ['--slo', 'p99<=60s', '--gpus', 'A100-80GB,H100-80GB',
          '--workload', 'a'])]


def plan_mutants():
    for scen, args in PLAN:
        yield scen, 0, 'plan', 'none', 'plan-base', args
        for j in range(1, len(args), 2):
            opt, v = args[j - 1], args[j]
            alts = [('empty', ''), ('comma', ','), ('dup', v + ',' + v),
                    ('delete', None)]
            for a, b in TYPOS.items():
                if a in v:
                    alts.append(('typo', v.replace(a, b, 1)))
                    break
            for kind, rep in (('negative', lambda m: '-' + m.group(1)),
                              ('zero', '0'), ('nan', 'nan'),
                              ('huge', '1e300')):
                nv = sub_num(v, rep)
                if nv is not None:
                    alts.append((kind, nv))
            nv = unit_swap(v)
            if nv:
                alts.append(('unit', nv))
            for kind, nv in alts:
                new = list(args)
                if nv is None:
                    del new[j - 1:j + 1]
                else:
                    new[j] = nv
                yield scen, 0, 'plan', opt, kind, new


def cap_horizon(lines):
    """Cut [scenario] horizon to 10 minutes (a short legitimate run)."""
    out = []
    for l in lines:
        s = l.split(';')[0].strip()
        if re.match(r'horizon\s*=\s*\d+(\.\d+)?(d|h)\s*$', s) or \
           re.match(r'horizon\s*=\s*(\d\d+|[2-9]\d)m\s*$', s):
            l = 'horizon = 10m'
        out.append(l)
    return out


def stored_runs(db):
    if not os.path.exists(db):
        return 0
    try:
        c = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
        n = c.execute("SELECT count(*) FROM run").fetchone()[0]
        c.close()
        return n
    except sqlite3.Error:
        return -1   # a file that is no database: half-written


def classify(rc, err, db, what):
    runs = stored_runs(db)
    errl = [l for l in err.split('\n') if l.strip()]
    if SANITIZER.search(err):
        return 'finding', 'sanitizer report'
    if rc == 124:
        if runs != 0:
            return 'finding', 'timed out and left a partial run'
        return 'finding', 'timeout (hang)'
    if rc == 0:
        return 'accepted', ''
    if rc not in (1, 2):
        return 'finding', 'exit status %d' % rc
    if runs != 0:
        return 'finding', 'refused but %s run(s) stored' % runs
    # a usage error (exit 2) adds one line pointing to `fleetsim help`
    if rc == 2 and len(errl) == 2 and 'fleetsim help' in errl[1]:
        errl = errl[:1]
    if len(errl) != 1:
        return 'finding', 'refusal of %d lines' % len(errl)
    if not re.search(what, errl[0]):
        return 'finding', 'message names no %s' % what
    return 'refused', ''


def run_mutant(fs, tmp, m, timeout, n):
    scen, line, sect, key, kind, body = m
    d = os.path.join(tmp, 'm%05d' % n)
    os.makedirs(d)
    db = os.path.join(d, 'run.db')
    sdir = os.path.join(tmp, 'scenarios')
    if sect == 'plan':
        src = os.path.join(sdir, scen)
        ini = os.path.join(sdir, 'm%05d.ini' % n)
        with open(ini, 'w') as f:
            f.write('\n'.join(cap_horizon(open(src).read().split('\n'))))
        cmd = [fs, 'plan', ini, '--db', db, '--quiet'] + body
        what = r'(\.ini:\d+: \S|--\w|fleetsim plan)'
    else:
        ini = os.path.join(sdir, 'm%05d.ini' % n)
        with open(ini, 'w') as f:
            f.write('\n'.join(cap_horizon(body) if key != 'horizon' else body))
        cmd = [fs, 'run', ini, '--db', db, '--quiet']
        if key == 'horizon':
            # the default horizon (30 days) is a legitimate run of hours
            # under the sanitizers: bound it by the event estimate
            cmd += ['--max-events', '1000000']
        what = r'\.ini:\d+: [\w.]+'
    p = subprocess.run(['timeout', str(timeout)] + cmd, cwd=d,
                       capture_output=True, text=True)
    cls, why = classify(p.returncode, p.stderr, db, what)
    shutil.rmtree(d, ignore_errors=True)
    if cls != 'finding':
        os.unlink(ini)
    return cls, why, p.returncode, p.stderr.strip()[:600], cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--fleetsim', default=os.path.join(SRC, 'fleetsim'))
    ap.add_argument('--sample', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=60)
    ap.add_argument('--show', default='finding')
    ap.add_argument('--kinds', default='',
                    help='only these kinds (comma-separated), e.g. llm-bad')
    ap.add_argument('--strict', action='store_true',
                    help='accepted nonsense kinds fail the run too')
    a = ap.parse_args()
    ms = list(scenario_mutants()) + list(plan_mutants())
    if a.kinds:
        ms = [m for m in ms if m[4] in a.kinds.split(',')]
    if a.sample and a.sample < len(ms):
        pick = set(random.Random(a.seed).sample(range(len(ms)), a.sample))
        ms = [m for i, m in enumerate(ms) if i in pick]
    tmp = tempfile.mkdtemp(prefix='fsmut.')
    shutil.copytree(os.path.join(SRC, 'scenarios'),
                    os.path.join(tmp, 'scenarios'))
    os.symlink(os.path.join(SRC, 'traces'), os.path.join(tmp, 'traces'))
    counts = {}
    bad = 0
    for n, m in enumerate(ms):
        cls, why, rc, err, cmd = run_mutant(a.fleetsim, tmp, m, a.timeout, n)
        nonsense = cls == 'accepted' and m[4] in NONSENSE
        tag = 'accepted-nonsense?' if nonsense else cls
        counts[tag] = counts.get(tag, 0) + 1
        if cls == 'finding' or (a.strict and nonsense):
            bad += 1
        if a.show == 'all' or tag.startswith(a.show) or \
           (a.show == 'finding' and cls == 'finding'):
            print('%s %s %s:%s [%s] %s %s rc=%d %s\n   cmd: %s\n   err: %s'
                  % (tag, why, m[0], m[1], m[2], m[3], m[4], rc,
                     '' if m[2] == 'plan' else '',
                     ' '.join(cmd), err.replace('\n', '\n        ')))
            sys.stdout.flush()
    print('mutants: %d; %s' % (len(ms), ', '.join(
        '%s %d' % kv for kv in sorted(counts.items()))))
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
