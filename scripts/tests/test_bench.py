"""Unit tests of the bench's record, its regression guard and the generated tables, on small
recorded runs (no benchmark runs). `python3 -m unittest discover -s scripts/tests`; the Swift
suite BenchRecordTests runs them in `make test`."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import bench  # noqa: E402
import bench_record  # noqa: E402
import bench_tables  # noqa: E402

EPYC = "2 cores, AMD EPYC"


def measurement(tool, label, wall, cpu=None, rss=50.0, output=None, work=None, stages=None):
    m = {"tool": tool, "input": label, "wall_s": wall, "cpu_s": cpu if cpu is not None else wall, "peak_rss_mb": rss,
         "output_mb": output, "work": work, "unit": None}
    if stages:
        m["stages"] = [{"stage": name, "wall_s": w, "cpu_s": w, "peak_mb": rss} for name, w in stages]
    return m


def run(started, measurements, kind=EPYC, commit="abc1234", metrics=None):
    return {"format": 1, "started": started, "commit": commit, "machine": {"kind": kind, "description": kind},
            "measurements": measurements,
            "metrics": {**bench_record.derived_metrics(measurements), **(metrics or {})}}


def gtfs(started, seed_wall, shell_wall=10.0, rss=60.0, kind=EPYC, stages=None, commit="abc1234"):
    return run(started, [measurement("sqlite3 shell", "gtfs-3M", shell_wall, rss=137.0, output=272.0),
                         measurement("seedgen", "gtfs-3M", seed_wall, rss=rss, output=160.0, work=3_190_000, stages=stages)],
               kind=kind, commit=commit)


class DerivedMetricsTests(unittest.TestCase):
    def test_ratios_against_the_reference_in_the_same_run(self):
        metrics = gtfs("2026-11-01T00:00:00Z", 6.0)["metrics"]
        self.assertEqual(metrics["gtfs-3M: seedgen / sqlite3 shell wall"], {"value": 0.6, "unit": "x"})
        self.assertEqual(metrics["gtfs-3M: seedgen / sqlite3 shell CPU"]["value"], 0.6)
        self.assertEqual(metrics["gtfs-3M: seed size / shell db"]["value"], round(160 / 272, 3))
        self.assertEqual(metrics["gtfs-3M: seedgen peak RSS"], {"value": 60.0, "unit": "MB"})
        self.assertNotIn("gtfs-3M: sqlite3 shell peak RSS", metrics)

    def test_no_ratio_of_times_under_two_tenths_of_a_second(self):
        # GNU time's 10 ms steps: 0.03 against 0.04 s of CPU would read as a 25 % change.
        metrics = bench_record.derived_metrics([measurement("install delta (median)", "renfe", 0.25, cpu=0.25),
                                                measurement("install full .gz (median)", "renfe", 0.21, cpu=0.04)])
        self.assertIn("renfe: install delta (median) / install full .gz (median) wall", metrics)
        self.assertNotIn("renfe: install delta (median) / install full .gz (median) CPU", metrics)

    def test_no_ratio_without_the_reference(self):
        metrics = bench_record.derived_metrics([measurement("seedgen", "osm-x3", 1.0)])
        self.assertEqual(list(metrics), ["osm-x3: seedgen peak RSS"])


class CompareTests(unittest.TestCase):
    def test_a_ratio_grown_by_more_than_ten_percent_is_a_regression(self):
        old, new = gtfs("2026-11-01T00:00:00Z", 6.0), gtfs("2026-11-02T00:00:00Z", 6.7)
        lines, compared = bench_record.compare(new, [old])
        self.assertEqual(compared, 4)  # wall, CPU, size, peak RSS
        self.assertEqual(len([l for l in lines if l.startswith("REGRESSION")]), 2)  # wall and CPU
        self.assertIn("REGRESSION  gtfs-3M: seedgen / sqlite3 shell wall: 0.67x, was 0.6x in the run of 2026-11-01 "
                      "(abc1234): +12%", lines)

    def test_ten_percent_or_less_is_not(self):
        old, new = gtfs("2026-11-01T00:00:00Z", 6.0, rss=60.0), gtfs("2026-11-02T00:00:00Z", 6.6, rss=66.0)
        self.assertEqual(bench_record.compare(new, [old])[0], [])

    def test_only_runs_on_the_same_kind_of_machine_count(self):
        other = gtfs("2026-11-01T00:00:00Z", 3.0, kind="2 cores, Intel(R) Xeon(R) Processor")
        lines, compared = bench_record.compare(gtfs("2026-11-02T00:00:00Z", 6.0), [other])
        self.assertEqual((lines, compared), ([], 0))

    def test_each_figure_against_the_last_run_that_measured_it(self):
        first = gtfs("2026-11-01T00:00:00Z", 5.0)
        install = run("2026-11-02T00:00:00Z", [], metrics={bench_record.UP_TO_DATE: {"value": 300, "unit": "us"}})
        new = gtfs("2026-11-03T00:00:00Z", 6.0)
        lines, _ = bench_record.compare(new, [first, install])
        self.assertTrue(any("seedgen / sqlite3 shell wall: 0.6x, was 0.5x in the run of 2026-11-01" in l for l in lines), lines)

    def test_later_runs_are_not_history(self):
        old, new = gtfs("2026-11-01T00:00:00Z", 6.0), gtfs("2026-11-02T00:00:00Z", 9.0)
        self.assertEqual(bench_record.compare(old, [old, new]), ([], 0))

    def test_a_regression_names_the_stages_of_the_build_behind_it(self):
        old = gtfs("2026-11-01T00:00:00Z", 6.0, stages=[("load", 4.0), ("digest", 2.0)])
        new = gtfs("2026-11-02T00:00:00Z", 8.0, stages=[("load", 4.1), ("digest", 3.9)])
        lines, _ = bench_record.compare(new, [old])
        self.assertIn("            seedgen: stages (wall): load 4.00 -> 4.10 s, digest 2.00 -> 3.90 s", lines)

    def test_the_geojson_wall_against_json_load_is_a_figure(self):
        def geojson(started, seed_wall, commit="abc1234", recorded=True):
            r = run(started, [measurement("seedgen", "geojson-256mb", seed_wall, cpu=seed_wall * 1.3),
                              measurement("json.load", "geojson-256mb", 10.0)], commit=commit)
            if not recorded:  # a run recorded before the ratio was a figure: only its measurements have it
                r["metrics"] = {k: v for k, v in r["metrics"].items() if "json.load" not in k}
            return r
        self.assertEqual(geojson("2026-11-01T00:00:00Z", 2.8)["metrics"]["geojson-256mb: seedgen / json.load wall"],
                         {"value": 0.28, "unit": "x"})
        old, new = geojson("2026-11-01T00:00:00Z", 2.8, recorded=False), geojson("2026-11-02T00:00:00Z", 3.1, "def5678")
        lines, compared = bench_record.compare(new, [old])
        self.assertEqual(compared, 3)  # wall, CPU, peak RSS
        self.assertIn("REGRESSION  geojson-256mb: seedgen / json.load wall: 0.31x, was 0.28x in the run of 2026-11-01 "
                      "(abc1234): +11%", lines)
        self.assertEqual(bench_record.compare(geojson("2026-11-02T00:00:00Z", 3.0), [old])[0], [])

    def test_check_exits_one_on_a_regression(self):
        with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()):
            bench_record.save(gtfs("2026-11-01T00:00:00Z", 6.0), folder)
            path = bench_record.save(gtfs("2026-11-02T00:00:00Z", 6.0, commit="def5678"), folder)
            self.assertEqual(bench_record.main(["compare", "--check", "--runs", folder]), 0)
            bench_record.save(gtfs("2026-11-03T00:00:00Z", 7.0, commit="0123abc"), folder)
            self.assertEqual(bench_record.main(["compare", "--check", "--runs", folder]), 1)
            self.assertEqual(bench_record.main(["compare", "--runs", folder]), 0)
            self.assertEqual(bench_record.main(["compare", "--check", "--runs", folder, path]), 0)

    def test_a_saved_run_reads_back(self):
        with tempfile.TemporaryDirectory() as folder:
            path = bench_record.save(gtfs("2026-11-28T03:41:07Z", 6.0), folder)
            self.assertEqual(os.path.basename(path), "20261128T034107Z-abc1234.json")
            with open(path) as f:
                self.assertEqual(json.load(f)["metrics"]["gtfs-3M: seedgen / sqlite3 shell wall"]["value"], 0.6)


class TimingsTests(unittest.TestCase):
    def test_the_stages_seedgen_build_timings_prints(self):
        output = ("timings (wall, CPU of all threads, peak memory at the stage's end):\n"
                  "  load            3.10 s     4.20 CPU-s    61.0 MB peak\n"
                  "  stable ids      0.20 s     0.20 CPU-s    61.5 MB peak\n"
                  "  total           3.30 s     4.40 CPU-s    61.5 MB peak\n")
        self.assertEqual(bench.parse_timings(output), [
            {"stage": "load", "wall_s": 3.1, "cpu_s": 4.2, "peak_mb": 61.0},
            {"stage": "stable ids", "wall_s": 0.2, "cpu_s": 0.2, "peak_mb": 61.5}])
        self.assertIsNone(bench.parse_timings(""))


class TablesTests(unittest.TestCase):
    DOCUMENT = "# Doc\n\n<!-- bench-tables: figures -->\nold\n<!-- bench-tables: end -->\n\nafter\n"

    def test_each_row_from_the_newest_run_that_measured_it_dated(self):
        runs = [gtfs("2026-11-01T00:00:00Z", 6.0, commit="aaaaaaa"),
                run("2026-11-02T00:00:00Z", [], commit="bbbbbbb",
                    metrics={bench_record.UP_TO_DATE: {"value": 120, "unit": "us"},
                             bench_record.UP_TO_DATE_CROWD: {"value": 130, "unit": "us"}}),
                gtfs("2026-11-03T00:00:00Z", 5.0, commit="ccccccc")]
        text = bench_tables.generated(self.DOCUMENT, runs)
        self.assertIn("| 3M stop_times (3.19 M rows) | 5.0 s, 5.0 CPU-s, 60 MB peak RSS, 160 MB seed | "
                      "sqlite3 shell: 10.0 s, 137 MB, 272 MB db | 2026-11-03, `ccccccc` |", text)
        self.assertIn("| 0.12 ms (median of 100 processes); 0.13 ms beside 20,000 files | - | 2026-11-02, `bbbbbbb` |", text)
        self.assertNotIn("old", text)
        self.assertTrue(text.startswith("# Doc\n\n<!-- bench-tables: figures -->\n| input |"))
        self.assertTrue(text.endswith("<!-- bench-tables: end -->\n\nafter\n"))
        self.assertEqual(bench_tables.generated(text, runs), text)
        runs[1]["metrics"][bench_record.UP_TO_DATE_WARM] = {"value": 90, "unit": "us"}
        self.assertIn("| 0.09 ms after what any app has run first (the Swift runtime's set-up); its first Swift code: 0.12 ms "
                      "(median of 100 processes)", bench_tables.generated(self.DOCUMENT, runs))

    def test_a_delta_of_under_a_megabyte_shows_its_size(self):
        runs = [run("2026-11-01T00:00:00Z", [
            measurement("install delta (median)", "gtfs-3M-churn0.06", 1.58, rss=72.0, output=0.48),
            measurement("install full .gz (median)", "gtfs-3M-churn0.06", 0.47, output=166.6)])]
        text = bench_tables.generated(self.DOCUMENT, runs)
        self.assertIn("| apply a day's delta to the 3M seed (6% of the trips replaced) | 1.58 s, 72 MB peak RSS "
                      "(0.48 MB delta) | install the full `.gz`: 0.47 s |", text)
        self.assertEqual([bench_tables.size(mb) for mb in (0.048, 9.5, 46.6, 1621.1)],
                         ["0.048 MB", "9.5 MB", "47 MB", "1.58 GB"])

    def test_the_stages_of_the_newest_3m_build_that_has_them(self):
        runs = [gtfs("2026-11-01T00:00:00Z", 6.0, stages=[("load", 4.0), ("digest", 2.0)]), gtfs("2026-11-02T00:00:00Z", 5.0)]
        table = bench_tables.stages_table(runs)
        self.assertIn("The 3M build of 2026-11-01, `abc1234`", table)
        self.assertIn("| digest | 2.00 | 2.00 | 60.0 |", table)

    def test_check_fails_on_a_table_edited_by_hand(self):
        with tempfile.TemporaryDirectory() as root, contextlib.redirect_stdout(io.StringIO()):
            os.makedirs(os.path.join(root, "bench", "runs"))
            os.makedirs(os.path.join(root, "Documentation"))
            bench_record.save(gtfs("2026-11-01T00:00:00Z", 6.0), os.path.join(root, "bench", "runs"))
            for name in bench_tables.DOCUMENTS:
                with open(os.path.join(root, name), "w") as f:
                    f.write("".join(f"<!-- bench-tables: {b} -->\n<!-- bench-tables: end -->\n" for b in bench_tables.DOCUMENTS[name]))
            self.assertEqual(bench_tables.main(["--check", "--root", root]), 1)
            self.assertEqual(bench_tables.main(["--root", root]), 0)
            self.assertEqual(bench_tables.main(["--check", "--root", root]), 0)

    def test_the_committed_tables_are_what_the_committed_runs_give(self):
        self.assertEqual(bench_tables.main(["--check"]), 0)


if __name__ == "__main__":
    unittest.main()
