"""The bench's own tests: the percentile rule, the cost ratio and goals, compare's rule, saving
and reporting, the data's shape and the shell's split of the tags column. Standard library only; scripts/bench --smoke runs them first
(python3 -m unittest discover -s scripts/benchlib -t scripts runs them alone)."""
import json, os, sqlite3, tempfile, unittest

from benchlib import compare, report, results, userdata
from benchlib.figures import figure, judge
from benchlib.stats import cost_ratio, p50, p95, percentile


class PercentileTests(unittest.TestCase):
    def test_nearest_rank(self):
        thirty = list(range(1, 31))
        self.assertEqual(p95(thirty), 29)            # the second largest of 30
        self.assertEqual(p95(range(1, 21)), 19)      # rank 19 of 20: no float rounding up to 20
        self.assertEqual(p95(range(1, 61)), 57)
        self.assertEqual(p50(range(1, 42)), 21)      # the middle of 41
        self.assertEqual(p50([4, 1, 3, 2]), 2)       # the lower middle, never a mean
        self.assertEqual(percentile([7], 95), 7)
        self.assertEqual(percentile([3, 1, 2], 100), 3)
        self.assertEqual(percentile([3, 1, 2], 1), 1)

    def test_always_a_sample(self):
        samples = [0.3, 5000.0, 1.7, 2.2, 0.9]
        for p in range(1, 101):
            self.assertIn(percentile(samples, p), samples)

    def test_refuses(self):
        with self.assertRaises(ValueError):
            p50([])
        with self.assertRaises(ValueError):
            percentile([1], 0.95)


class FigureTests(unittest.TestCase):
    def test_cost_ratio(self):
        self.assertEqual(cost_ratio(30, 20), 1.5)                    # a time: value / baseline
        self.assertEqual(cost_ratio(50, 100, better="higher"), 2.0)  # a rate: baseline / value
        self.assertIsNone(cost_ratio(5, None))
        self.assertIsNone(cost_ratio(5, 0))

    def test_goals(self):
        self.assertTrue(figure("p.a", 12, "s", baseline=10, goal=1.2)["passed"])
        self.assertFalse(figure("p.a", 13, "s", baseline=10, goal=1.2)["passed"])
        self.assertTrue(figure("p.b", 5, "ms", goal=5, goal_of="value")["passed"])
        self.assertFalse(figure("p.b", 4, "ms", goal=5, goal_of="value", timeouts=1)["passed"])
        self.assertIsNone(figure("p.c", 4, "ms")["passed"])
        self.assertIsNone(judge([figure("p.b", 9, "ms", goal=5, goal_of="value")], "smoke")[0]["passed"])


def run_record(commit, date, figures, mode="quick", part="core"):
    return {"format": results.FORMAT, "commit": commit, "subject": "s", "dirty": False,
            "machine": {"nproc": 2, "kernel": "k", "cpu": "c", "python": "3"},
            "parts": {part: {"date": date, "mode": mode, "seconds": 1.0, "figures": figures, "detail": {}}}}


class CompareTests(unittest.TestCase):
    def test_ratio_threshold(self):
        before = run_record("a" * 40, "2026-01-01T00:00:00Z", [figure("core.x", 10, "ms", baseline=10)])
        slightly = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.x", 24, "ms", baseline=20)])  # 1.2x: +20 %
        self.assertEqual(compare.check(slightly, [before, slightly]), [])
        worse = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.x", 13, "ms", baseline=10)])    # +30 %
        self.assertEqual(len(compare.check(worse, [before, worse])), 1)
        # The machine slowed both sides alike: the ratio is what counts, not the value.
        slower = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.x", 30, "ms", baseline=30)])
        self.assertEqual(compare.check(slower, [before, slower]), [])

    def test_absolute_threshold_and_rates(self):
        before = run_record("a" * 40, "2026-01-01T00:00:00Z", [figure("core.y", 100, "rows/s", better="higher")])
        worse = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.y", 60, "rows/s", better="higher")])  # +67 % cost
        self.assertEqual(len(compare.check(worse, [before, worse])), 1)
        fine = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.y", 70, "rows/s", better="higher")])   # +43 %
        self.assertEqual(compare.check(fine, [before, fine]), [])

    def test_only_other_commits_same_mode_earlier(self):
        same_commit = run_record("b" * 40, "2026-01-01T00:00:00Z", [figure("core.x", 1, "ms", baseline=10)])
        full_run = run_record("c" * 40, "2026-01-01T00:00:00Z", [figure("core.x", 1, "ms", baseline=10)], mode="full")
        later = run_record("d" * 40, "2026-01-03T00:00:00Z", [figure("core.x", 1, "ms", baseline=10)])
        now = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.x", 10, "ms", baseline=10)])
        self.assertEqual(compare.check(now, [same_commit, full_run, later, now]), [])

    def test_missed_goal_fails_and_context_is_not_compared(self):
        before = run_record("a" * 40, "2026-01-01T00:00:00Z", [figure("core.z", 1, "ms", context=True)])
        now = run_record("b" * 40, "2026-01-02T00:00:00Z", [figure("core.z", 9, "ms", context=True),
                                                           figure("core.g", 9, "ms", goal=5, goal_of="value")])
        failures = compare.check(now, [before, now])
        self.assertEqual(len(failures), 1)
        self.assertIn("core.g", failures[0])


class SavedTests(unittest.TestCase):
    def test_save_merges_parts_and_report_takes_the_newest(self):
        with tempfile.TemporaryDirectory() as folder:
            first = run_record("a" * 40, "2026-01-01T00:00:00Z", [figure("core.x", 12, "ms", baseline=10, goal=1.5)])
            results.save(first, folder)
            second = run_record("a" * 40, "2026-01-02T00:00:00Z", [figure("sync.y", 3, "s")], part="sync")
            path = results.save(second, folder)
            with open(path) as f:
                self.assertEqual(sorted(json.load(f)["parts"]), ["core", "sync"])
            newer = run_record("b" * 40, "2026-01-03T00:00:00Z", [figure("core.x", 11, "ms", baseline=10, goal=1.5)])
            results.save(newer, folder)
            page = os.path.join(folder, "PERFORMANCE.md")
            report.write(["core", "sync"], path=page, directory=folder)
            with open(page) as f:
                text = f.read()
            self.assertIn("| x | 11 | ms |  | 10 | 1.10x | ratio <= 1.5 | met |", text)
            self.assertIn("`bbbbbbbbbbbb`", text)
            self.assertIn("`aaaaaaaaaaaa`", text)   # sync's newest is still the first commit's


class UserDataTests(unittest.TestCase):
    def test_vocabulary(self):
        tags = userdata.tag_vocabulary()
        self.assertEqual(len(set(tags)), 300)
        spaced = [t for t in tags if " " in t]
        self.assertTrue(20 <= len(spaced) <= 60)
        for tag in spaced:   # stored as todo stores a tag with a space: +"home improvement"
            self.assertRegex(tag, r'^[+@]"[^"+@]+"$')
        self.assertEqual(len(userdata.WORDS), 256)

    def test_families(self):
        subtasks = 0
        for parents in userdata.FAMILIES:
            self.assertEqual(len(parents), 10)
            for position, parent in enumerate(parents):
                depth, at = 0, position
                while parents[at] is not None:
                    self.assertLess(parents[at], at)   # a parent comes earlier: no loop, in the same run
                    at, depth = parents[at], depth + 1
                self.assertLessEqual(depth, 2)        # three levels at most
                subtasks += parent is not None
        self.assertAlmostEqual(subtasks / 40, 1 / 3, delta=0.05)

    def test_the_shell_splits_tags_as_todo_groups_them(self):
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE todos (id INTEGER PRIMARY KEY, tags TEXT, done INTEGER, start_date TEXT)")
        db.executemany("INSERT INTO todos VALUES (?, ?, 0, NULL)",
                       [(1, '+a +"b c" @Home'), (2, ''), (3, '@"at home" +Work'), (4, '+x-1')])
        rows = db.execute(f"WITH RECURSIVE {userdata.TAG_MEMBERS.rstrip(',')} SELECT id, g FROM members "
                          "ORDER BY id, g").fetchall()
        self.assertEqual(rows, [(1, "a"), (1, "b c"), (1, "home"), (2, None), (3, "at home"), (3, "work"), (4, "x-1")])


if __name__ == "__main__":
    unittest.main()
