#!/usr/bin/env python3
"""The lineage shapes of issue #33, as Codex homes (stdlib only; deterministic).

  python3 benches/lineage-trees.py fanout OUT [--parent-mb 100] [--forks 50] [--chain 20]
  python3 benches/lineage-trees.py chain  OUT [--depth 2000]

fanout: one paginated parent of about --parent-mb MB (tool calls with 8 KB outputs),
--forks forks of the whole of it (each one user message of its own), and a chain of
--chain forks below the first fork, each forking the whole of the one before.
chain: --depth forks, each forking the whole of the one before (a root of one message).
Each file is laid out as Codex lays it out: OUT/sessions/2026/11/29/rollout-...-<id>.jsonl,
its session_meta at the ordinal its history_base ends at, with end_byte_offset the
source's length (as the real 0.171 fork writes it).
"""
import argparse
import os


def uid(i):
    return "01a2272d-0000-7000-8000-%012d" % i


def meta(idd, first, base=None):
    b = ""
    if base:
        b = ',"history_base":{"thread_id":"%s","end_ordinal_exclusive":%d,"end_byte_offset":%d}' % base
    return ('{"timestamp":"2026-11-29T12:00:00.000Z","ordinal":%d,"type":"session_meta","payload":'
            '{"id":"%s","timestamp":"2026-11-29T12:00:00.000Z","cwd":"/w","originator":"codex_exec",'
            '"cli_version":"0.171.0","model_provider":"mock","history_mode":"paginated"%s}}\n') % (first, idd, b)


def msg(o, t):
    return ('{"timestamp":"2026-11-29T12:00:02.000Z","ordinal":%d,"type":"response_item","payload":'
            '{"type":"message","role":"user","content":[{"type":"input_text","text":"%s"}]}}\n') % (o, t)


def write(day, k, text):
    data = text.encode()
    with open(os.path.join(day, "rollout-2026-11-29T12-00-00-%s.jsonl" % uid(k)), "wb") as f:
        f.write(data)
    return len(data)


def chain_below(day, first_id, src, n):
    """n forks, each of the whole of the one before, starting below `src` = (id, next, len)."""
    for j in range(first_id, first_id + n):
        first = src[1]
        size = write(day, j, meta(uid(j), first, (src[0], first, src[2])) + msg(first + 1, "c%d" % j))
        src = (uid(j), first + 2, size)


def fanout(day, parent_mb, forks, chain):
    out = "x" * 8000
    lines, o, size = [meta(uid(0), 0)], 1, 0
    while size < parent_mb * 1_000_000:
        call = ('{"timestamp":"2026-11-29T12:00:01.000Z","ordinal":%d,"type":"response_item","payload":'
                '{"type":"function_call","name":"shell","call_id":"c%d","arguments":"{\\"cmd\\":\\"ls\\"}"}}\n') % (o, o)
        answer = ('{"timestamp":"2026-11-29T12:00:01.000Z","ordinal":%d,"type":"response_item","payload":'
                  '{"type":"function_call_output","call_id":"c%d","output":"%s"}}\n') % (o + 1, o, out)
        lines += [call, answer]
        size += len(call) + len(answer)
        o += 2
    parent_len = write(day, 0, "".join(lines))
    first_fork = None
    for k in range(1, forks + 1):
        size = write(day, k, meta(uid(k), o, (uid(0), o, parent_len)) + msg(o + 1, "f%d" % k))
        if k == 1:
            first_fork = (uid(1), o + 2, size)
    if chain and first_fork:
        chain_below(day, forks + 1, first_fork, chain)


def chain(day, depth):
    size = write(day, 0, meta(uid(0), 0) + msg(1, "root"))
    chain_below(day, 1, (uid(0), 2, size), depth)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shape", choices=["fanout", "chain"])
    p.add_argument("out")
    p.add_argument("--parent-mb", type=int, default=100)
    p.add_argument("--forks", type=int, default=50)
    p.add_argument("--chain", type=int, default=20)
    p.add_argument("--depth", type=int, default=2000)
    a = p.parse_args()
    day = os.path.join(a.out, "sessions/2026/11/29")
    os.makedirs(day, exist_ok=False)
    if a.shape == "fanout":
        fanout(day, a.parent_mb, a.forks, a.chain)
    else:
        chain(day, a.depth)


if __name__ == "__main__":
    main()
