#!/usr/bin/env python3
"""gen_chain.py: a fork chain of Codex 0.171.0 paginated rollouts, N history_base links deep.

    python3 gen_chain.py --depth 101 --out HOME     # HOME/sessions/2026/11/29/rollout-*.jsonl

Link 0 (the root) is the real 0.171.0 parent rollout of testdata/real/0.171.0/fork, copied byte
for byte. Fork k (1..N) is built from the real fork child of that unit (`*fdfa*.jsonl`, written by
`codex exec fork`), record for record, with:

* its own thread id (UUIDv7-shaped, time part = its session_meta time) and file name
  `rollout-2026-11-29T12-MM-SS-<thread id>.jsonl`; session_meta at 12:01:00.302 + (k-1) s;
  every other id of the template (turn, message, item, window ids) replaced by a fresh
  UUIDv7-shaped one, every timestamp shifted by the same amount;
* `session_meta.payload.history_base = {thread_id: fork k-1, end_ordinal_exclusive: (fork k-1's
  last ordinal) + 1, end_byte_offset: fork k-1's file length}`, `forked_from_id` = fork k-1,
  `forked_from_ordinal_exclusive` = that same ordinal; its records take ordinals from there on
  (12 records per fork, so fork k holds ordinals 14 + 12(k-1) .. 25 + 12(k-1));
* the user message text `m{k}` and the answer `r{k}` (in the response_items, the item_completed
  events and task_complete), response id `resp_chain_{k}`, message id `msg_resp_chain_{k}`;
  `history_sequence` / `sampled_through_sequence` / `user_input_order` continued from the root;
  the token usage of the template's turn, with the thread totals accumulated;
* `base_instructions` (21 727 characters of the template's session_meta) left out, unless
  --keep-base-instructions: the files stay small.

Compact JSON (`separators=(",", ":")`, non-ASCII kept), as Codex writes; one record a line.
Stdlib only. Prints the leaf's path.
"""
import argparse
import datetime as dt
import hashlib
import json
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "..", "..", "real", "0.171.0", "fork", "sessions", "2026", "11", "29")
ROOT = "rollout-2026-11-29T12-00-55-01a2272d-fced-7f63-8ff0-e3a6e151dcbb.jsonl"
CHILD = "rollout-2026-11-29T12-00-55-01a2272d-fdfa-7c33-abe8-a07f91b0fc53.jsonl"
ROOT_ID = "01a2272d-fced-7f63-8ff0-e3a6e151dcbb"
CHILD_ID = "01a2272d-fdfa-7c33-abe8-a07f91b0fc53"
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
FIRST_FORK_MS = 5000          # fork 1's session_meta: template time + 5 s (12:01:00.302)
STEP_MS = 1000                # fork k+1 one second after fork k
USAGE = {"input_tokens": 4000, "cached_input_tokens": 2800, "cache_write_input_tokens": 0,
         "output_tokens": 53, "reasoning_output_tokens": 26, "total_tokens": 4053}
ROOT_TOTAL = {"input_tokens": 3550, "cached_input_tokens": 2350, "cache_write_input_tokens": 0,
              "output_tokens": 50, "reasoning_output_tokens": 25, "total_tokens": 3600}


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def uuid7_like(ms, seed):
    """A UUIDv7-shaped id: 48-bit Unix ms, version 7, variant 10, the rest from sha256(seed)."""
    h = hashlib.sha256(seed.encode()).hexdigest()
    t = "%012x" % ms
    return "%s-%s-7%s-%s%s-%s" % (t[:8], t[8:], h[:3], "89ab"[int(h[3], 16) % 4], h[4:7], h[7:19])


def shift_ts(s, delta_ms):
    t = dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ") + dt.timedelta(milliseconds=delta_ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def fork_records(template, k, parent_id, end_ordinal, end_byte_offset, keep_base):
    """Fork k's records (dicts) from the template child's, and its thread id."""
    delta = FIRST_FORK_MS + (k - 1) * STEP_MS
    ids = {ROOT_ID: parent_id}
    for rec in template:
        for u in UUID_RE.findall(dumps(rec)):
            if u not in ids:
                ids[u] = uuid7_like(int(u[:8] + u[9:13], 16) + delta, "fork%d:%s" % (k, u))
    tid = ids[CHILD_ID]
    user_text, answer = "m%d" % k, "r%d" % k
    total = {key: ROOT_TOTAL[key] + k * USAGE[key] for key in USAGE}

    def walk(v, key=None):
        if isinstance(v, dict):
            return {kk: walk(vv, kk) for kk, vv in v.items()}
        if isinstance(v, list):
            return [walk(x, key) for x in v]
        if isinstance(v, str):
            if TS_RE.match(v):
                return shift_ts(v, delta)
            v = UUID_RE.sub(lambda m: ids[m.group(0)], v)
            if v == "Now answer differently in a fork.":
                return user_text
            if v == "Forked thread: answering the new question in the fork.":
                return answer
            return {"msg_resp_fork_2": "msg_resp_chain_%d" % k,
                    "resp_fork_2": "resp_chain_%d" % k}.get(v, v)
        if isinstance(v, int) and not isinstance(v, bool):
            if key in ("started_at_ms", "completed_at_ms"):
                return v + delta
            if key in ("started_at", "completed_at"):
                return v + (55 * 1000 + delta) // 1000 - 55
        if isinstance(v, float) and key == "create_time":
            return round(v + delta / 1000, 7)
        return v

    out = []
    for i, rec in enumerate(template):
        r = walk(rec)
        r["ordinal"] = end_ordinal + i
        p = r["payload"]
        if r["type"] == "session_meta":
            if not keep_base:
                del p["base_instructions"]
            p["forked_from_id"] = parent_id
            p["forked_from_ordinal_exclusive"] = end_ordinal
            p["history_base"] = {"thread_id": parent_id, "end_ordinal_exclusive": end_ordinal,
                                 "end_byte_offset": end_byte_offset}
        if r["type"] == "response_item":
            md = r["metadata"]
            if p["role"] == "user":
                md.update(history_sequence=3 + 2 * k, sampled_through_sequence=1 + 2 * k,
                          user_input_order=2 * k)
            else:
                md.update(history_sequence=4 + 2 * k, sampled_through_sequence=3 + 2 * k,
                          user_input_order=2 * k + 1)
        if r["type"] == "token_usage_record":
            p["thread_token_usage"] = dict(total)
        if r["type"] == "event_msg" and p.get("type") == "token_count":
            p["info"]["total_token_usage"] = dict(total)
        out.append(r)
    return out, tid


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, required=True, help="number of forks (history_base links)")
    ap.add_argument("--out", required=True, help="a CODEX_HOME-like folder (created)")
    ap.add_argument("--keep-base-instructions", action="store_true")
    ap.add_argument("--real", default=REAL,
                    help="folder of the two real 0.171.0 fork files (default: testdata/real/...)")
    a = ap.parse_args()
    day = os.path.join(a.out, "sessions", "2026", "11", "29")
    os.makedirs(day, exist_ok=True)
    with open(os.path.join(a.real, CHILD), "rb") as f:
        template = [json.loads(ln) for ln in f.read().splitlines()]
    root_dst = os.path.join(day, ROOT)
    shutil.copyfile(os.path.join(a.real, ROOT), root_dst)
    with open(root_dst, "rb") as f:
        data = f.read()
    parent_id, path = ROOT_ID, root_dst
    last_ordinal, parent_len = json.loads(data.splitlines()[-1])["ordinal"], len(data)
    for k in range(1, a.depth + 1):
        recs, tid = fork_records(template, k, parent_id, last_ordinal + 1, parent_len,
                                 a.keep_base_instructions)
        stamp = recs[0]["payload"]["timestamp"]          # 2026-11-29T12:01:00.292Z
        name = "rollout-%s-%s-%s-%s.jsonl" % (stamp[:13], stamp[14:16], stamp[17:19], tid)
        body = "".join(dumps(r) + "\n" for r in recs).encode()
        path = os.path.join(day, name)
        with open(path, "wb") as f:
            f.write(body)
        parent_id, last_ordinal, parent_len = tid, recs[-1]["ordinal"], len(body)
    print(path)


if __name__ == "__main__":
    main()
