# seedgen: build, test and benchmark. `make help` lists the targets.
SWIFT        ?= swift
APT_PACKAGES := libxml2-dev libsqlite3-dev zlib1g-dev pkg-config sqlite3 time
RELEASE_BIN  := .build/release/seedgen
# What `make test` needs besides: Python's venv and a C compiler (scripts/other-sqlites.sh), and
# Chromium, which opens `seedgen report`'s pages headless (scripts/report-check.py).
TEST_APT_PACKAGES := python3-venv gcc chromium
# The reference tools `make bench` runs beside seedgen: osmium (OSM to OPL, and the PBF inputs),
# xmllint --stream, spatialite_osm_raw (OSM PBF to SQLite).
BENCH_APT_PACKAGES := osmium-tool libxml2-utils spatialite-bin

.PHONY: help deps test-deps bench-deps other-sqlites build release example readme report-screenshot test regress outcomes app fuzz sanitize bench clean

help:
	@echo "make example  install what is missing, build seedgen, build the bundled Cairns feed"
	@echo "make readme   write the summary make example prints into README.md (a test compares them)"
	@echo "make report-screenshot  write Documentation/report.png, README's picture of seedgen report's page"
	@echo "make test     run every test (unit and end-to-end), the sample app, and each fuzz target for 15 s"
	@echo "make regress  build every real input of the golden record (Tests/RealData/outcomes.json), the large ones too"
	@echo "make outcomes record what every real input gives now in Tests/RealData/outcomes.json (commit it with the change)"
	@echo "make app      build and run the sample app (examples/App) with the bundled feed"
	@echo "make fuzz     run each fuzz target FUZZ_SECONDS (default 600) with AddressSanitizer"
	@echo "make sanitize run every test under AddressSanitizer (with leak checks), then ThreadSanitizer"
	@echo "make bench    compare seedgen with the sqlite3 shell, osmium and xmllint on the same inputs"
	@echo "              (BENCH_JOBS=gtfs,topsongs,osm,pbf picks the jobs; see bench/README.md); REGRESSION where a"
	@echo "              figure grew >10% over the last run recorded on this kind of machine (BENCH_CHECK=1: exit 1)"
	@echo "make build    debug build;  make release: optimized build"
	@echo "make other-sqlites  install the two other SQLite versions the tests apply deltas with (.venv-sqlite/)"

# Installs the Debian packages $(1), only those that are missing.
define apt_install
@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

# The Debian packages seedgen needs.
deps:
	$(call apt_install,$(APT_PACKAGES))

# What `make test` needs besides seedgen's own packages.
test-deps:
	$(call apt_install,$(TEST_APT_PACKAGES))

# The reference tools of `make bench`.
bench-deps:
	$(call apt_install,$(BENCH_APT_PACKAGES))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product seedgen

example: release
	@mkdir -p out
	$(RELEASE_BIN) build examples/cairns --out out/cairns.sqlite

# README's example output is what `make example` prints, written by this (ReadmeTests compares them).
readme: release
	scripts/readme-example.py $(RELEASE_BIN)

# README's screenshot of a report (Documentation/report.png): the bundled Cairns feed's page, opened
# in headless Chromium by scripts/report-check.py, which checks it on the way.
report-screenshot: release test-deps
	@mkdir -p out
	$(RELEASE_BIN) build examples/cairns --out out/cairns.sqlite --notices out/cairns-notices.json --quiet
	$(RELEASE_BIN) report out/cairns.sqlite --notices out/cairns-notices.json --out out/cairns-report.html
	python3 scripts/report-check.py out/cairns-report.html --seed out/cairns.sqlite --screenshot Documentation/report.png \
	  --window-size 1200,2300

# Two SQLite versions besides the system's, for the tests that apply deltas with another SQLite
# (LD_PRELOAD): .venv-sqlite/libraries.txt lists them. See scripts/other-sqlites.sh.
other-sqlites:
	scripts/other-sqlites.sh

test: deps test-deps other-sqlites
	python3 scripts/public-api.py --check SeedInstaller SeedUpdater
	python3 scripts/source-limits.py --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	SWIFT=$(SWIFT) scripts/check-versioned-dependency.sh
	FUZZ_SECONDS=$${FUZZ_SECONDS:-15} SWIFT=$(SWIFT) scripts/fuzz.sh

# The golden record of real inputs (Tests/RealData/outcomes.json): `make test` builds the small
# ones and fails on any difference; `make regress` builds them all (the eight Renfe days, their
# --previous chain, the published zips, the ten-feed region, ...); `make outcomes` records them.
regress: deps
	$(SWIFT) build --build-tests
	SEEDGEN_REGRESS=1 $(SWIFT) test --skip-build --filter RealDataOutcomeTests

outcomes: deps
	$(SWIFT) build --build-tests
	SEEDGEN_RECORD_OUTCOMES=1 SEEDGEN_REGRESS=1 $(SWIFT) test --skip-build --filter RealDataOutcomeTests

# The sample app (examples/App) with a seed built from the bundled feed; see scripts/sample-app.sh.
# (make test builds and runs the app's sources against a tagged clone: check-versioned-dependency.sh)
app: build
	SWIFT=$(SWIFT) scripts/sample-app.sh

# Fuzzing: libFuzzer + AddressSanitizer, one target after the other (scripts/fuzz.sh).
fuzz: deps
	FUZZ_SECONDS=$${FUZZ_SECONDS:-600} SWIFT=$(SWIFT) scripts/fuzz.sh

# The whole suite under AddressSanitizer (LeakSanitizer included: scripts/lsan-suppressions.txt
# names the system libraries' leaks), then under ThreadSanitizer; about 10 and 30 minutes.
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt:print_suppressions=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

bench: release bench-deps
	$(SWIFT) build -c release --product seedprobe
	scripts/bench.sh
	$(MAKE) regress

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan out bench/work examples/App/.build
