"""``fillomino hint``: the next logical step from the clues (and your marks), as a sentence."""

from __future__ import annotations

import argparse
import sys

from .ambiguity import CANDIDATES_HELP, load_candidates
from .common import add_input, add_json, add_no_color, check_image_output, load_puzzle, print_json, write_output


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "hint",
        help="the next logical step (the gentlest technique that makes progress), as a sentence",
        description="Show the next step of the logical solver: its technique, level, sentence and cells. "
        "Exit 0 with a hint, 1 when no technique makes progress (or every cell is decided), 2 on unusable input.",
        epilog="Example: fillomino hint fillomino:3x3:a2b234b --render hint.svg",
    )
    add_input(p)
    p.add_argument("--marks", metavar="GRID", help=CANDIDATES_HELP.replace("answers count only solutions inside it",
                                                                           "the candidates you have already"))
    p.add_argument("--render", metavar="FILE", help="draw the board with the hint's cells marked (.svg or .png)")
    p.add_argument("--force", action="store_true", help="overwrite the --render file if it exists")
    add_json(p)
    add_no_color(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..logic import hint
    from ..logic.candidates import cell_name
    from ..terminal import format_board, use_color

    suffix = check_image_output("--render", args.render, args.force) if args.render else None
    puzzle = load_puzzle(args.input)
    marks = load_candidates(args.marks, puzzle)
    step = hint(puzzle, marks)
    cols = puzzle.cols
    if args.render:
        from .. import render

        cells = set() if step is None else {(c // cols, c % cols) for c in step.cells}
        draw = render.render_svg if suffix == ".svg" else render.render_png
        write_output(args.render, draw(puzzle, None, highlight=cells), args.force)
    if args.json:
        print_json({"technique": None, "steps": []} if step is None else
                   {**step.to_json(cols), "steps": step.audit_steps(cols)}, status="none" if step is None else "step")
        return 0 if step else 1
    if step is None:
        print("no hint: no technique makes progress from here (every cell decided, or the ladder stalls)")
        return 1
    print(f"{step.technique} ({step.level}): {step.sentence}")
    print("cells: " + ", ".join(cell_name(c, cols) for c in step.cells))
    cells = {(c // cols, c % cols) for c in step.cells}
    print(format_board(puzzle, None, color=use_color(sys.stdout, args.no_color), highlight=cells))
    return 0
