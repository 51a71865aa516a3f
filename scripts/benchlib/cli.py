"""The command line of scripts/bench (argparse): which parts run, in which mode, what is saved and
checked. See scripts/bench --help."""
import argparse, json, math, os, shutil, sys, tempfile, time, traceback, unittest
from types import SimpleNamespace

from . import (bulk, compare, core, lists, outline, repeat, report, results, scale, sync, syncread, transport, twimport,
               uifilter)
from . import next as next_part  # not `next`: that would hide the builtin here
from .build import Binaries
from .figures import judge
from .proc import install_signal_handlers, log
from .servers import stop_all

PARTS = [core, repeat, bulk, scale, outline, uifilter, twimport, next_part, sync, lists, syncread, transport]
NAMES = [part.NAME for part in PARTS]
NOTES = {part.NAME: part.report_note for part in PARTS if hasattr(part, "report_note")}


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/bench", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Measures todo against baselines, saves the figures per commit, compares and reports them.",
        epilog="actions:\n"
               "  run       (the default) measure the parts, print their tables, save bench/results/<commit>.json\n"
               "  compare   check the newest saved results (or FILE): exit 1 when a goal is missed or a figure got\n"
               f"            worse than the last saved run of another commit (ratio to its baseline by more than\n"
               f"            {compare.THRESHOLD:.0%}, a figure without a baseline by more than {compare.ABSOLUTE_THRESHOLD:.0%})\n"
               "  report    write docs/PERFORMANCE.md from the newest saved results of each part\n"
               f"parts: {', '.join(NAMES)}")
    parser.add_argument("action", nargs="?", default="run", choices=["run", "compare", "report"])
    parser.add_argument("file", nargs="?", help="compare: the results file to check (default: the newest saved)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="smaller rounds; the scale table skips 1,000,000 todos")
    mode.add_argument("--smoke", action="store_true",
                      help="every part at a tiny size on the debug build scripts/test made: that each runs and gives "
                           "its figures (goals not judged, nothing saved); runs the bench's own unit tests first")
    parser.add_argument("--only", metavar="PART[,PART...]", type=parts_list, help="run only these parts")
    parser.add_argument("--json", action="store_true", help="print the results record as JSON instead of the tables")
    parser.add_argument("--check", action="store_true", help="after the run, compare (exit 1 on a failure)")
    parser.add_argument("--no-save", action="store_true", help="do not save the results")
    parser.add_argument("--threshold", type=float, default=compare.THRESHOLD, help="compare: growth of a ratio (0.25: 25%%)")
    parser.add_argument("--absolute-threshold", type=float, default=compare.ABSOLUTE_THRESHOLD,
                        help="compare: growth of a figure without a baseline")
    args = parser.parse_args(argv)
    if args.file and args.action != "compare":
        parser.error(f"{args.file!r}: only compare takes a file")
    return args


def parts_list(text):
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(unknown) or text!r}: the parts are {', '.join(NAMES)}")
    return names


def unit_tests():
    """The bench's own tests (stats, compare, results), quietly; raises when one fails."""
    suite = unittest.defaultTestLoader.discover(os.path.dirname(os.path.abspath(__file__)), pattern="test_*.py",
                                                top_level_dir=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outcome = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)
    if not outcome.wasSuccessful():
        raise SystemExit("bench: its unit tests failed")


def smoke_problems(name, figures):
    """What a smoke run holds against a part's figures: none, or a value that is not a number."""
    if not figures:
        return [f"{name}: no figures"]
    return [f"{f['name']}: value {f['value']!r}" for f in figures
            if not isinstance(f["value"], (int, float)) or math.isnan(f["value"]) or math.isinf(f["value"])]


def measure(args, mode):
    """Runs the parts chosen, each to its end or its error; the parts measured and the failures."""
    chosen = [part for part in PARTS if not args.only or part.NAME in args.only]
    work = tempfile.mkdtemp(prefix="todo-bench-")
    ctx = SimpleNamespace(work=work, mode=mode, binaries=Binaries(work, smoke=mode == "smoke"))
    measured, failed = {}, []
    try:
        for part in chosen:
            began = time.monotonic()
            try:
                detail, figures = part.measure(ctx)
            except Exception:
                log(f"bench: {part.NAME} FAILED:\n{traceback.format_exc()}")
                failed.append(f"{part.NAME}: failed (its traceback is above)")
                continue
            finally:
                stop_all()
            seconds = time.monotonic() - began
            if mode == "smoke":
                failed += smoke_problems(part.NAME, judge(figures, mode))
            measured[part.NAME] = results.part_record(mode, seconds, detail, figures)
            log(f"bench: {part.NAME}: {seconds:.1f} s")
    finally:
        stop_all()
        shutil.rmtree(work, ignore_errors=True)
    return measured, failed


def print_tables(record, out=sys.stdout):
    parts = {part.NAME: part for part in PARTS}
    for name, part in record["parts"].items():
        print(file=out)
        parts[name].show(part["detail"], part["figures"], out)
        print(f"{name} part: {part['seconds']:.0f} s ({part['mode']})", file=out)
    figures = [f for part in record["parts"].values() for f in part["figures"] if f["goal"]]
    missed = [f["name"] for f in figures if f["passed"] is False]
    judged = [f for f in figures if f["passed"] is not None]
    print(file=out)
    print(f"goals: {len(judged) - len(missed)} met, {len(missed)} missed"
          + (f" ({', '.join(missed)})" if missed else "")
          + (f", {len(figures) - len(judged)} not judged" if len(judged) < len(figures) else ""), file=out)


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.action == "report":
        path, parts = report.write(NAMES, NOTES)
        print(f"bench: wrote {os.path.relpath(path)} ({', '.join(parts)})")
        return 0
    if args.action == "compare":
        records = results.load_all()
        current = results.load(args.file) if args.file else results.newest(records)
        if current is None:
            raise SystemExit("bench compare: no saved results in bench/results/: run scripts/bench first")
        failures = compare.check(current, records, args.threshold, args.absolute_threshold, out=sys.stdout)
        return 1 if failures else 0

    install_signal_handlers()
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    if mode == "smoke":
        unit_tests()
    began = time.monotonic()
    head = results.commit()  # the commit measured: taken before the run, which may outlast it
    measured, failed = measure(args, mode)
    record = results.record(measured, head)
    if args.json:
        print(json.dumps(record))
    else:
        print_tables(record)
    if mode == "smoke":
        # What a saved run goes through, on these figures: the report's page and compare (goals only).
        report.markdown([(name, record, part) for name, part in record["parts"].items()], NOTES)
        compare.check(record, [record])
    elif measured and not args.no_save:
        log(f"bench: saved {os.path.relpath(results.save(record))}")
    log(f"bench: {mode} run of {', '.join(measured) or 'no part'}: {time.monotonic() - began:.1f} s")
    if failed:
        log("bench: FAILED:\n  " + "\n  ".join(failed))
        return 1
    if args.check:
        return 1 if compare.check(record, results.load_all(), args.threshold, args.absolute_threshold,
                                  out=sys.stderr) else 0
    return 0
