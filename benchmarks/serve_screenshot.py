"""The README's picture of the workbench: ``fillomino serve`` on a janko.at 10x10 draft, in headless Chromium.

    python benchmarks/serve_screenshot.py [--puzzle janko-007] [--remove 4] [--out docs/serve.png]

The draft is the puzzle of ``../shared/corpus-external`` with its first ``--remove`` clues of a fixed shuffle
taken out (so the page shows loose cells, two answers, a count and suggestions); the picture is taken once
every panel has answered. Needs the ``serve`` and ``test`` extras and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree, not an installed copy

from fillomino.formats import read_puzzle, write_id  # noqa: E402
from tests.test_serve_support import CHROMEDRIVER, CHROMIUM, CHROMIUM_FLAGS, running_server  # noqa: E402

EXTERNAL = ROOT.parent / "shared" / "corpus-external"
FLAGS = (*CHROMIUM_FLAGS, "--window-size=1280,900", "--hide-scrollbars")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", default="janko-007")
    parser.add_argument("--remove", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "docs" / "serve.png"))
    args = parser.parse_args()

    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    full = read_puzzle(str(EXTERNAL / f"{args.puzzle}.txt"))
    cells = full.clue_cells()
    random.Random(args.seed).shuffle(cells)
    gone = set(cells[: args.remove])
    draft = full.with_clues([0 if i in gone else v for i, v in enumerate(full.clues)])
    profile = tempfile.mkdtemp(prefix="fillomino-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    with running_server("--no-ahead") as base:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.get(f"{base}/#{write_id(draft)}")
            WebDriverWait(driver, 300, poll_frequency=0.2).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell")
                and not d.find_elements(By.CSS_SELECTOR, ".value.busy"))
            time.sleep(0.5)
            driver.save_screenshot(args.out)
        finally:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)
    print(f"{args.out}: {args.puzzle} without {len(gone)} clues, {write_id(draft)}")


if __name__ == "__main__":
    main()
