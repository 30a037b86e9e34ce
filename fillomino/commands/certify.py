"""``fillomino certify``: prove every puzzle file in a corpus sound, for CI; text, JSON, JUnit and HTML reports."""

from __future__ import annotations

import argparse
import html
import sys
from collections.abc import Sequence
from pathlib import Path

from ..puzzle import FillominoError, plural
from .common import add_quiet, add_workers, check_output, print_json, workers_from

EXIT_FAILED = 1
EXIT_UNKNOWN = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "certify",
        help="check a whole corpus: stored solutions, uniqueness (one or both engines), minimality",
        description="For every puzzle file (folders are searched recursively for *.txt and *.json): parse it, "
        "check its stored solution against the rules, prove it unique and that the stored solution is the "
        "solution. Prints one line per failure and a table per size. Exit 0 when every puzzle passes, 1 when "
        "any fails, 3 when none fails but some were left unknown by --budget, 2 on bad usage. Files are only read.",
        epilog="Example: fillomino certify corpus/ --both --junit certify.xml",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files and folders")
    p.add_argument("--both", action="store_true", help="prove uniqueness with the CP-SAT engine too")
    p.add_argument("--rate", action="store_true",
                   help="also rate every puzzle with the logical rater (a file with a 'level:' header is rated and "
                   "checked against it anyway); a logical solve must agree with the engines")
    p.add_argument("--minimal", action="store_true",
                   help="also check that every clue is needed (one incremental CNF question per clue)")
    p.add_argument("--expect-status", action="store_true",
                   help="judge each file by its 'status:' header: unique/published must be proved unique, "
                   "multiple must be found multiple, unknown is only reported; a budget left unknown is "
                   "listed, not a failure")
    p.add_argument("--budget", metavar="LIMIT",
                   help="per puzzle and engine: give up with 'unknown' after a time ('20s') or conflicts ('100000c')")
    add_workers(p)
    p.add_argument("--results", metavar="FILE.jsonl",
                   help="append one JSON line per finished puzzle, flushed at once; the reports are built from it")
    p.add_argument("--resume", action="store_true",
                   help="with --results: skip the puzzles the file already records (by content hash and options)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --results, --junit or --html file")
    p.add_argument("--per-size", type=int, metavar="N",
                   help="a sample: at most N puzzles of each grid shape (the first N by file name)")
    p.add_argument("--max-cells", type=int, metavar="N", help="skip puzzles with more than N cells (20x20 is 400)")
    add_quiet(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON: a record per puzzle")
    p.add_argument("--junit", metavar="FILE", help="also write JUnit XML (a test case per puzzle)")
    p.add_argument("--html", metavar="FILE", help="also write one self-contained HTML page with a thumbnail "
                   "per failed, unknown or ambiguous puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import time

    from ..certify import CertifyOptions, ResultsLog, certify_records, read_record, select
    from ..formats import iter_puzzle_files
    from ..progress import Progress
    from ..solvers import Budget

    start = time.perf_counter()
    options = CertifyOptions(
        backends=("cnf", "cpsat") if args.both else ("cnf",),
        minimal=args.minimal,
        rate=args.rate,
        expect_status=args.expect_status,
        budget=Budget.parse(args.budget),
    )
    workers = workers_from(args)
    for flag, value in (("--per-size", args.per_size), ("--max-cells", args.max_cells)):
        if value is not None and value < 1:
            raise FillominoError(f"{flag} must be at least 1, got {value}")
    if args.resume and not args.results:
        raise FillominoError("--resume goes with --results FILE.jsonl")
    files = list(iter_puzzle_files(args.paths))
    if not files:
        raise FillominoError(f"no puzzle files (*.txt, *.json) in {', '.join(args.paths)}")
    for out in (args.junit, args.html, args.results):
        if out and any(Path(out).resolve() == f.resolve() for f in files):
            raise FillominoError(f"{out} is one of the puzzle files: certify never overwrites its input")
    for flag, out in (("--junit", args.junit), ("--html", args.html), ("--results", args.results)):
        if out:
            check_output(flag, out, args.force, exists_ok=flag == "--results")  # --results: ResultsLog's rule
    records = select([read_record(f, options) for f in files], per_size=args.per_size, max_cells=args.max_cells)
    if not records:
        raise FillominoError(f"no puzzle of {', '.join(args.paths)} has at most {args.max_cells} cells")
    log = ResultsLog(args.results, options, resume=args.resume, force=args.force) if args.results else None
    todo = [r for r in records if log is None or not log.recorded(r)]
    failed = 0
    try:
        with Progress(len(records), "certifying", unit="puzzle", quiet=args.quiet) as bar:
            bar.advance(len(records) - len(todo))

            def done(record) -> None:
                nonlocal failed
                if log is not None:
                    log.write(record)
                failed += record.fails(options.expect_status)
                bar.advance(failed=failed)

            certify_records(todo, options, workers=workers, on_done=done)
    except KeyboardInterrupt:
        kept = f"; the finished ones are in {args.results}" if log is not None else ""
        print(f"fillomino: interrupted: {bar.done} of {plural(len(records), 'puzzle')} certified{kept}",
              file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()
    if log is not None:
        records = [log.record_for(r) if log.recorded(r) else r for r in records]
    run_info = RunInfo(time.perf_counter() - start, workers.describe(), len(files) - len(records),
                       len(records) - len(todo))
    if args.junit:
        _write(args.junit, junit_xml(records, options))
    if args.html:
        _write(args.html, html_report(records, options))
    failing = [r for r in records if r.fails(options.expect_status)]
    status = "failed" if any(r.outcome == "failed" for r in failing) else "unknown" if failing else "certified"
    if args.json:
        print_json(json_report(records, options, run_info), status=status)
    else:
        print(text_report(records, options, run_info))
    if any(r.outcome == "failed" for r in failing):
        return EXIT_FAILED
    return EXIT_UNKNOWN if failing else 0


class RunInfo:
    """How the whole run went: wall seconds from start to table, where it ran, files the sample left out,
    puzzles taken from a --resume'd results file."""

    def __init__(self, wall_seconds: float, workers: str, skipped: int = 0, resumed: int = 0) -> None:
        self.wall_seconds, self.workers, self.skipped, self.resumed = wall_seconds, workers, skipped, resumed


def _write(name: str, text: str) -> None:
    try:
        Path(name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise FillominoError(f"cannot write {name}: {exc.strerror or exc}") from None


def _options_json(options) -> dict:
    from ..certify import _budget_text

    return {"backends": list(options.backends), "minimal": options.minimal, "rate": options.rate,
            "expect_status": options.expect_status, "budget": _budget_text(options.budget)}


# ---------------------------------------------------------------- text


def text_report(records: Sequence, options, run: RunInfo | None = None) -> str:
    """Failure lines (file: problem), findings with both solutions, unknowns, notes, then the table."""
    from ..certify import FAILED, UNKNOWN

    lines: list[str] = []
    for r in records:
        lines += [f"{r.file}: {p}" for p in r.problems]
        if r.outcome == UNKNOWN and not options.expect_status:
            lines += [f"{r.file}: unknown: {u}" for u in r.unknowns]
    for r in records:
        for f in r.findings:
            lines.append(f"{r.file}: FINDING: {f}")
            if r.puzzle is not None and len(r.solutions) == 2:
                lines.append(_two_boards(r))
    listed = [r for r in records if r.unknowns and r.outcome != FAILED and options.expect_status]
    if listed:
        lines.append(f"left unknown by the budget (listed, not failures with --expect-status): {len(listed)}")
        lines += [f"{r.file}: unknown: {u}" for r in listed for u in r.unknowns]
    lines += [f"{r.file}: note: {n}" for r in records for n in r.notes]
    if lines:
        lines.append("")
    levels: dict[str, int] = {}
    for r in records:
        if r.level is not None:
            levels[r.level] = levels.get(r.level, 0) + 1
    if levels:
        order = ["easy", "medium", "hard", "expert", "unrated"]
        lines.append("levels: " + ", ".join(f"{lv} {levels[lv]}" for lv in sorted(levels, key=order.index)))
    lines.append(summary_table(records, run))
    return "\n".join(lines)


def _two_boards(record) -> str:
    from ..solvers.base import differing_cells
    from ..terminal import format_board, side_by_side

    a, b = record.solutions
    marked = set(differing_cells(a, b))
    return side_by_side([format_board(record.puzzle, g, highlight=marked) for g in (a, b)])


def summary_table(records: Sequence, run: RunInfo | None = None) -> str:
    """The per-size table and a closing count line."""
    from ..certify import summarize

    rows = summarize(records)
    findings = any(row.findings for row in rows)
    head = ["size", "puzzles", "passed", "failed", "unknown"] + (["findings"] if findings else []) + [
        "median s", "max s"]
    table = [head]
    for row in rows:
        table.append([row.size, str(row.count), str(row.passed), str(row.failed), str(row.unknown)]
                     + ([str(row.findings)] if findings else [])
                     + [f"{row.median_seconds:.2f}", f"{row.max_seconds:.2f}"])
    widths = [max(len(t[k]) for t in table) for k in range(len(head))]
    out = ["  ".join(cell.ljust(w) if k == 0 else cell.rjust(w) for k, (cell, w) in enumerate(zip(t, widths)))
           for t in table]
    total = rows[-1]
    out.append(f"certify: {plural(total.count, 'puzzle')}, {total.passed} passed, {total.failed} failed, "
               f"{total.unknown} unknown" + (f", {total.findings} findings" if findings else "")
               + f"; {_times(records, run)}")
    if run is not None and run.skipped:
        out.append(f"({plural(run.skipped, 'file')} left out by --per-size/--max-cells)")
    if run is not None and run.resumed:
        out.append(f"({plural(run.resumed, 'puzzle')} taken from the --results file, not certified again)")
    return "\n".join(out)


def _times(records: Sequence, run: RunInfo | None) -> str:
    """Wall seconds of the run (when known) and the CPU seconds its engine runs used, each by its name."""
    cpu = f"{sum(r.cpu_seconds for r in records):.1f} CPU s in the engines"
    if run is None:
        return cpu
    return f"{run.wall_seconds:.1f} s wall on {run.workers}, {cpu}"


# ---------------------------------------------------------------- JSON


def json_report(records: Sequence, options, run: RunInfo | None = None) -> dict:
    from ..certify import summarize

    rows = summarize(records)
    times = {"cpu_seconds": round(sum(r.cpu_seconds for r in records), 3)}
    if run is not None:
        times |= {"wall_seconds": round(run.wall_seconds, 3), "workers": run.workers, "left_out": run.skipped,
                  "resumed": run.resumed}
    return {
        "options": _options_json(options),
        "summary": rows[-1].to_json() | times | {"by_size": [row.to_json() for row in rows[:-1]]},
        "puzzles": [r.to_json() for r in records],
    }


# ---------------------------------------------------------------- JUnit


def junit_xml(records: Sequence, options) -> str:
    """A test case per puzzle (class certify.<size>): failure with every problem, skipped when left unknown."""
    import xml.etree.ElementTree as ET

    failures = sum(r.outcome == "failed" or (r.outcome == "unknown" and not options.expect_status) for r in records)
    skipped = sum(r.outcome == "unknown" and options.expect_status for r in records)
    total = f"{sum(r.seconds for r in records):.3f}"
    attrs = {"name": "fillomino certify", "tests": str(len(records)), "failures": str(failures),
             "errors": "0", "skipped": str(skipped), "time": total}
    suites = ET.Element("testsuites", attrs)
    suite = ET.SubElement(suites, "testsuite", attrs)
    for r in records:
        case = ET.SubElement(suite, "testcase", {"classname": f"certify.{r.size}", "name": r.file,
                                                  "time": f"{r.seconds:.3f}"})
        if r.outcome == "failed" or (r.outcome == "unknown" and not options.expect_status):
            messages = r.problems or [f"unknown: {u}" for u in r.unknowns]
            failure = ET.SubElement(case, "failure", {"message": messages[0], "type": r.outcome})
            failure.text = "\n".join(messages)
        elif r.outcome == "unknown":
            ET.SubElement(case, "skipped", {"message": "; ".join(r.unknowns)})
        extra = r.findings + r.notes
        if extra:
            ET.SubElement(case, "system-out").text = "\n".join(extra)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


# ---------------------------------------------------------------- HTML


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #ddd; }
td:first-child, th:first-child { text-align: left; }
.puzzle { margin: 1.5em 0; padding-top: 0.5em; border-top: 1px solid #ccc; }
.failed h3 { color: #b00020; } .unknown h3 { color: #8a6d00; } .finding h3 { color: #0046b0; }
img { margin: 4px 12px 4px 0; vertical-align: top; }
code { font-size: 90%; }
"""


def html_report(records: Sequence, options) -> str:
    """One self-contained page: the summary table, then every puzzle that did not pass with a thumbnail."""
    from ..certify import PASSED, summarize

    esc = html.escape
    rows = summarize(records)
    head = ["size", "puzzles", "passed", "failed", "unknown", "findings", "median s", "max s"]
    table = ["<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = [row.size, row.count, row.passed, row.failed, row.unknown, row.findings,
                 f"{row.median_seconds:.2f}", f"{row.max_seconds:.2f}"]
        table.append("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in cells) + "</tr>")
    table.append("</table>")
    shown = [r for r in records if r.outcome != PASSED]
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        "<title>fillomino certify report</title>", f"<style>{_STYLE}</style></head><body>",
        "<h1>fillomino certify</h1>",
        f"<p>Engines: {esc(', '.join(options.backends))}; minimal: {'yes' if options.minimal else 'no'}; "
        f"expect status: {'yes' if options.expect_status else 'no'}; "
        f"budget: {esc(_options_json(options)['budget'])}.</p>",
        "\n".join(table),
        f"<h2>Puzzles that did not pass ({len(shown)})</h2>" if shown else "<p>Every puzzle passed.</p>",
    ]
    parts += [_html_puzzle(r) for r in shown]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_puzzle(record) -> str:
    from ..render import render_diff_svg, render_svg, svg_data_uri

    esc = html.escape
    items = record.problems + [f"unknown: {u}" for u in record.unknowns] + [f"finding: {f}" for f in record.findings]
    items += [f"note: {n}" for n in record.notes]
    engines = ", ".join(f"{e.backend} {e.status} {e.seconds:.2f} s" for e in record.engines)
    out = [f'<div class="puzzle {esc(record.outcome)}">',
           f"<h3>{esc(record.outcome)}: <code>{esc(record.file)}</code></h3>",
           f"<p>{esc(record.size)}, {record.clues if record.clues is not None else '?'} clues; {esc(engines)}</p>",
           "<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"]
    puzzle = record.puzzle
    if puzzle is not None:
        if len(record.solutions) == 2:
            svg, alt = render_diff_svg(puzzle, *record.solutions, cell_size=12), "two solutions, differences tinted"
        else:
            svg, alt = render_svg(puzzle, puzzle.solution, cell_size=12), "the puzzle with its stored solution"
        out.append(f'<img src="{svg_data_uri(svg)}" alt="{esc(alt)}" title="{esc(alt)}">')
    out.append("</div>")
    return "\n".join(out)
