#!/usr/bin/env python3
"""The state-database cases of rollscope's `state` rules that `drive.py` (in
../shared/corpus-gen/statedb/) does not make itself, asked of the real Codex the same way.

    cd ../shared/corpus-gen/statedb
    ./ns.sh python3 "$PWD/../../../main/testdata/statedb/cases.py" break VER BASE CASES MODES OUT

It imports drive.py, adds its cases to drive.mutate, and runs drive's `break` with them (any of
drive's own cases may be named too); `trim RESULTS OUT` keeps what the fixtures' verdicts hold
(verdicts/VER.json); `dump BASE OUT` writes a base home as the fixture VER/ (each database as
SQL text). Cases:

  g_turn_start_inside   the second stored turn's rollout_byte_offset 137 bytes into its
                        task_started line (its ordinal left as it is)
  g_turn_end_ordinal    the first stored turn's rollout_end_ordinal one past its task_complete
  h_repair_unsafe       a blank line inserted in the first turn, the checkpoint at the new end
                        (as Codex leaves it once it has read the file), then
                        `rollscope repair --in-place --unsafe-fixes` (it deletes the line)
  h_repair_rebuilt      the same, then thread_history_1.sqlite (and -wal, -shm) moved aside, as
                        repair's message says

ROLLSCOPE names the rollscope binary (default: target/release/rollscope of this checkout).
"""
import os
import sys

if sys.argv[1:2] not in (["trim"], ["dump"]):
    sys.path.insert(0, os.getcwd())
    import drive  # noqa: E402

_own = drive.mutate if sys.argv[1:2] not in (["trim"], ["dump"]) else None


def mutate(name, base_dir):
    if not name.startswith(("g_", "h_")):
        return _own(name, base_dir)
    drive.restore(os.path.join(base_dir, "home2"))
    con = drive.sqlite3.connect(os.path.join(drive.H, drive.HIST))
    turns = con.execute(
        "select turn_id, rollout_byte_offset, rollout_end_ordinal from thread_turns "
        "order by rollout_ordinal").fetchall()
    con.close()
    info = {}
    if name == "g_turn_start_inside":
        tid, off, _ = turns[1]
        drive.db_exec(drive.HIST, "update thread_turns set rollout_byte_offset=? where turn_id=?",
                      (off + 137, tid))
        info = {"turn": tid, "rollout_byte_offset": off + 137, "was": off}
    elif name == "g_turn_end_ordinal":
        tid, _, end = turns[0]
        drive.db_exec(drive.HIST, "update thread_turns set rollout_end_ordinal=? where turn_id=?",
                      (end + 1, tid))
        info = {"turn": tid, "rollout_end_ordinal": end + 1, "was": end}
    elif name in ("h_repair_unsafe", "h_repair_rebuilt"):
        import subprocess
        p = drive.the_rollout()
        lines = drive.lines_with_offsets(p)
        cut = lines[5][0]
        data = open(p, "rb").read()
        data = data[:cut] + b"\n" + data[cut:]
        open(p, "wb").write(data)
        drive.db_exec(drive.HIST, "update thread_history_projection_state set "
                      "next_rollout_byte_offset=?", (len(data),))
        here = os.path.dirname(os.path.abspath(__file__))
        exe = os.environ.get("ROLLSCOPE") or os.path.join(here, "../../target/release/rollscope")
        r = subprocess.run([exe, "repair", "--in-place", "--unsafe-fixes", "--format", "ndjson",
                            p], capture_output=True, text=True)
        info = {"blank_at": cut, "checkpoint": len(data), "repair_rc": r.returncode,
                "repair_rows": [l for l in r.stdout.splitlines() if "line.blank" in l],
                "size_after": os.path.getsize(p)}
        for bak in (p + ".bak",):
            if os.path.exists(bak):
                os.remove(bak)
        if name == "h_repair_rebuilt":
            drive.rm_db(drive.HIST)
    else:
        raise SystemExit("unknown case " + name)
    return info


if sys.argv[1:2] not in (["trim"], ["dump"]):
    drive.mutate = mutate

def trim(results, out):
    """The verdicts kept beside the fixtures: per case and mode, the mutation's facts, the
    databases before, and what Codex did (no log bodies, no item texts)."""
    import json
    keep = {}
    for key, r in json.load(open(results)).items():
        b = r.get("before", {})
        v = {"mutation": r["mutation"], "mode": r["mode"], "info": r.get("info"),
             "before": {k: b.get(k) for k in ("proj", "turns", "rollouts")},
             "stderr": [l[l.find(" WARN ") + 1:][:300] if " WARN " in l else l[:300]
                        for l in (r.get("stderr") or [])]}
        if r["mode"] == "exec":
            v["rc"] = r.get("rc")
            v["first_request"] = r.get("first_request")
        else:
            v["app"] = {m: ({k: x.get(k) for k in ("ok", "turns", "items", "turn_status", "error")}
                            if isinstance(x, dict) else x) for m, x in (r.get("app") or {}).items()}
        keep[key] = v
    json.dump(keep, open(out, "w"), indent=1, sort_keys=True)


def dump(base, out):
    """A base home (drive.py `base` OUT) as a fixture: for home1 and home2, the rollouts at
    their paths and each database as SQL text (sqlite3's iterdump, of a copy with its -wal;
    `sqlite_sequence`'s rows moved after the tables that make it, its emptying left out)."""
    import glob
    import shutil
    import sqlite3
    import tempfile
    for h in ("home1", "home2"):
        src, dst = os.path.join(base, h), os.path.join(out, h)
        shutil.rmtree(dst, ignore_errors=True)
        os.makedirs(dst)
        for p in glob.glob(src + "/sessions/**/*.jsonl", recursive=True):
            to = os.path.join(dst, os.path.relpath(p, src))
            os.makedirs(os.path.dirname(to), exist_ok=True)
            shutil.copy2(p, to)
        for db in ("state_5", "thread_history_1"):
            with tempfile.TemporaryDirectory() as tmp:
                for suf in ("", "-wal"):
                    if os.path.exists(os.path.join(src, db + ".sqlite" + suf)):
                        shutil.copy2(os.path.join(src, db + ".sqlite" + suf),
                                     os.path.join(tmp, db + ".sqlite" + suf))
                con = sqlite3.connect(os.path.join(tmp, db + ".sqlite"))
                lines = list(con.iterdump())
                con.close()
            # iterdump empties sqlite_sequence whether or not a table made it.
            seq = [l for l in lines if "sqlite_sequence" in l and not l.startswith("DELETE")]
            rest = [l for l in lines if "sqlite_sequence" not in l]
            if rest and rest[-1] == "COMMIT;":
                rest = rest[:-1] + seq + ["COMMIT;"]
            with open(os.path.join(dst, db + ".sql"), "w") as f:
                f.write("\n".join(rest) + "\n")


if __name__ == "__main__" and sys.argv[1] == "dump":
    dump(sys.argv[2], sys.argv[3])

if __name__ == "__main__" and sys.argv[1] == "trim":
    trim(sys.argv[2], sys.argv[3])

if __name__ == "__main__" and sys.argv[1] == "break":
    drive.run_break(sys.argv[2], sys.argv[3], sys.argv[4].split(","), sys.argv[5].split(","),
                    sys.argv[6])
