"""Work spread over processes and clusters: every job's result comes back exactly once, the same as in one
process; certify's --results file survives a killed run and --resume finishes it without repeats."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.certify import CertifyOptions, ResultsLog, certify_files, read_record
from fillomino.cli import main
from fillomino.workers import SOLO_SHARE, Workers, chunks, in_order, run_jobs

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SAMPLE = sorted((CORPUS / "05x05").glob("*.txt"))[:6] + sorted((CORPUS / "08x08").glob("*.txt"))[:4]


def square(x: int) -> int:
    return x * x


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 100), max_size=60), st.integers(1, 20))
def test_chunks_hold_every_job_once_costliest_first(costs, parts):
    groups = chunks(costs, parts)
    flat = [i for g in groups for i in g]
    assert sorted(flat) == list(range(len(costs)))
    assert [costs[i] for i in flat] == sorted(costs, reverse=True)
    assert len(groups) <= (SOLO_SHARE + 1) * max(parts, 1) + 1 or not costs
    target = sum(costs) / max(parts, 1)
    assert all(len(g) == 1 for g in groups if costs[g[0]] * SOLO_SHARE >= target)


def test_big_jobs_are_never_grouped_onto_one_worker():
    # The corpus under --both: three 30x30 CP-SAT proofs (cost 9000) once shared a chunk, so one worker ran
    # them one after another (about 45 CPU minutes before any record) while the other had long finished.
    costs = [9000.0] * 3 + [6250.0] * 3 + [4000.0] * 20 + [100.0] * 300
    groups = chunks(costs, 16)
    assert groups[:26] == [[i] for i in range(26)]
    assert len(groups) < 60  # the small ones still travel together


@pytest.mark.parametrize("workers", [Workers(1), Workers(2)])
def test_run_jobs_gives_each_result_once(workers):
    jobs = list(range(40))
    got = dict(run_jobs(square, jobs, workers, cost=lambda x: x % 7))
    assert got == {i: i * i for i in jobs}


@given(st.permutations(range(12)))
def test_in_order_gives_input_order_and_sees_every_arrival(arrival):
    seen: list[int] = []
    out = list(in_order(((i, i * i) for i in arrival), on_finish=lambda i, r: seen.append(i)))
    assert out == [(i, i * i) for i in range(12)]
    assert seen == list(arrival)


def test_workers_are_checked():
    with pytest.raises(Exception, match="at least 1"):
        Workers(0)
    with pytest.raises(Exception, match="address like"):
        Workers(scheduler="localhost")


def _plain(records) -> list[dict]:
    """Records without their timings, for comparing runs."""
    drop = ("seconds", "cpu_seconds")
    out = []
    for r in records:
        data = {k: v for k, v in r.to_json().items() if k not in drop}
        data["engines"] = {b: e["status"] for b, e in data["engines"].items()}
        out.append(data)
    return out


def test_two_processes_give_the_same_records_as_one():
    one = certify_files(SAMPLE, CertifyOptions(), workers=Workers(1))
    two = certify_files(SAMPLE, CertifyOptions(), workers=Workers(2))
    assert _plain(one) == _plain(two)
    assert all(r.outcome == "passed" for r in one)


def test_results_file_resume_skips_recorded_puzzles_and_survives_a_torn_line(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    argv = ["certify", "--workers", "1", "--json", "--results", str(results), *map(str, SAMPLE[:4])]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    lines = results.read_text().splitlines()
    assert len(lines) == 4
    assert main(argv) == 2  # the file exists: neither overwritten nor appended to without a word
    assert "already exists" in capsys.readouterr().err
    # a run killed while writing its third line: two whole records and a torn one
    results.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])
    assert main([*argv[:-4], "--resume", *map(str, SAMPLE[:5])]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["summary"]["resumed"] == 2 and again["summary"]["passed"] == 5
    records = [json.loads(line) for line in results.read_text().splitlines() if line.startswith("{")
               and line.endswith("}")]
    assert sorted(r["file"] for r in records) == sorted(map(str, SAMPLE[:5]))  # each puzzle once
    assert [p["verdict"] for p in again["puzzles"][:4]] == [p["verdict"] for p in first["puzzles"]]
    assert main([*argv[:-4], "--resume", "--both", str(SAMPLE[0])]) == 0  # other options: certified anew
    assert "resumed" in capsys.readouterr().out


def test_a_results_log_refuses_a_folder_and_knows_records_by_content(tmp_path):
    with pytest.raises(Exception, match="folder"):
        ResultsLog(tmp_path, CertifyOptions(), resume=True)
    a = tmp_path / "a.txt"
    a.write_bytes(SAMPLE[0].read_bytes())
    assert read_record(a, CertifyOptions()).hash == read_record(SAMPLE[0], CertifyOptions()).hash


def test_a_client_killed_mid_run_resumes_with_every_record_exactly_once(tmp_path):
    results = tmp_path / "r.jsonl"
    files = sorted((CORPUS / "10x10").glob("*.txt"))[:12]
    cmd = [sys.executable, "-m", "fillomino", "certify", "--workers", "2", "--quiet", "--results", str(results),
           *map(str, files)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the client and its worker processes, as a kill -9 of the job would
    proc.wait()
    before = [line for line in results.read_text().splitlines() if line.endswith("}")]
    assert 0 < len(before)
    done = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines() if line.endswith("}")]
    assert sorted(r["file"] for r in records) == sorted(map(str, files))  # every puzzle exactly once
    assert f"({len(before)} puzzle" in done.stdout


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_certify_with_130_and_records_no_false_failure(tmp_path, workers):
    results = tmp_path / "r.jsonl"
    files = sorted((CORPUS / "15x15").glob("*.txt"))[:8]
    proc = subprocess.Popen([sys.executable, "-m", "fillomino", "certify", "--workers", workers, "--results",
                             str(results), *map(str, files)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (results.exists() and results.read_text().count("\n") >= 1):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole process group
    out, err = proc.communicate(timeout=60)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    if proc.returncode == 0:  # every puzzle finished before the signal landed
        assert len(lines) == len(files)
        return
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("fillomino: interrupted: ")
    assert "Traceback" not in err and out == ""
    assert lines and all(r["outcome"] == "passed" for r in lines)


def test_rate_on_two_processes_gives_the_same_ratings_as_one(capsys):
    files = [str(p) for p in SAMPLE[:6]]  # the 5x5s: rated in milliseconds
    assert main(["rate", "--workers", "1", "--json", *files]) in (0, 1)
    one = json.loads(capsys.readouterr().out)["puzzles"]
    assert main(["rate", "--workers", "2", "--json", *files]) in (0, 1)
    two = json.loads(capsys.readouterr().out)["puzzles"]
    drop = ("seconds",)
    assert [{k: v for k, v in r.items() if k not in drop} for r in one] == \
        [{k: v for k, v in r.items() if k not in drop} for r in two]
    assert [r["puzzle"] for r in two] == files  # the input's order, whatever order the workers finish in
