"""On a Dask LocalCluster (two worker processes, loopback only): the same records and puzzles as one process,
and a worker killed mid-run costs no record and repeats none."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from fillomino.certify import CertifyOptions, certify_files
from fillomino.cli import main
from fillomino.workers import Workers
from tests.test_workers import SAMPLE, _plain

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

distributed = pytest.importorskip("distributed", reason="the cluster tests need Dask: pip install 'fillomino[cluster]'")


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as local:
        yield local


def test_certify_on_a_cluster_gives_the_same_records_as_one_process(cluster):
    local = certify_files(SAMPLE, CertifyOptions(), workers=Workers(1))
    remote = certify_files(SAMPLE, CertifyOptions(), workers=Workers(scheduler=cluster.scheduler_address))
    assert _plain(local) == _plain(remote)


def test_a_worker_killed_mid_run_still_gives_every_record_once(cluster):
    from distributed import Client

    files = sorted((CORPUS / "10x10").glob("*.txt"))[:10]
    seen: list[str] = []
    with Client(cluster.scheduler_address) as client:
        pids = list(client.run(os.getpid).values())

    def killer(record) -> None:
        seen.append(record.file)
        if len(seen) == 1:
            os.kill(pids[0], signal.SIGKILL)  # a worker dies while the others' chunks are in flight

    records = certify_files(files, CertifyOptions(), workers=Workers(scheduler=cluster.scheduler_address),
                            on_done=killer)
    assert sorted(seen) == sorted(map(str, files)) and len(seen) == len(set(seen))
    assert all(r.outcome == "passed" for r in records)


def test_generate_on_a_cluster_writes_the_same_puzzles_as_locally(cluster, tmp_path):
    argv = ["generate", "--size", "5x5", "--count", "20", "--no-timing", "--quiet"]
    assert main([*argv, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    assert main([*argv, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "cluster")]) == 0
    local = {p.name: p.read_bytes() for p in (tmp_path / "local").iterdir()}
    remote = {p.name: p.read_bytes() for p in (tmp_path / "cluster").iterdir()}
    assert len(local) == 20 and local == remote
