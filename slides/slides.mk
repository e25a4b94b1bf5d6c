# The lecture deck (included by the top Makefile).
#
#   make slides                  build/slides/index.html: one self-contained HTML file, speaker notes
#   make slides-pdf              build/slides/deck.pdf, rendered by Debian's Chromium (CHROME_PATH)
#   make slides FORMAT=pdf       the same as slides-pdf
#   make slides RESULTS=run.json numbers from another run (default: the newest H100 report in docs/results/)
#   make slides STUDENT=1        the students' edition, build/slides-student/index.html: every listing
#                                that holds a lab's answer is left out (make handout ships it)
#   make test-slides             build the deck and check it in headless Chromium (also part of `make test`)
#
# Node.js runs the generator and Marp (@marp-team/marp-cli, pinned by slides/package-lock.json and
# installed with `npm ci` when slides/node_modules is missing); gnuplot draws the charts. The
# diagrams are the emulator's trace of the solution kernels, read through the checker: the
# generator builds the emulator's programs of the labs it traces (make build-solutions
# BACKEND=emu, nothing when they are up to date). tools/setup installs them (features: slides
# plot emu).

SLIDES_OUT   := $(BUILD)/slides$(if $(filter 1,$(STUDENT)),-student)
SLIDES_MARP  := slides/node_modules/.bin/marp
CHROME_PATH  ?= /usr/bin/chromium
RESULTS      ?=
FORMAT       ?= html
export CHROME_PATH

.PHONY: slides slides-pdf slides-md test-slides slides-deps

slides-deps:
	@tools/setup slides plot emu
	@if [ ! -x $(SLIDES_MARP) ] || [ slides/package-lock.json -nt slides/node_modules/.package-lock.json ]; then \
	    echo "slides: npm ci (Marp, pinned by slides/package-lock.json)"; \
	    cd slides && npm ci --no-audit --no-fund --loglevel=error; \
	fi

# The Markdown: regenerated every time (it takes a second), so an edit to a solution, a section
# or the results always shows.
slides-md: slides-deps
	@node slides/generate.mjs --out $(SLIDES_OUT) --build $(BUILD) $(if $(RESULTS),--results $(RESULTS)) $(if $(filter 1,$(STUDENT)),--student)

ifeq ($(FORMAT),pdf)
slides: slides-pdf
else
slides: slides-md
	@$(SLIDES_MARP) --no-stdin --html --theme-set slides/theme.css --allow-local-files \
	    $(SLIDES_OUT)/deck.md -o $(SLIDES_OUT)/index.html 2>&1 | grep -v '^\[  INFO \]' || true
	@test -s $(SLIDES_OUT)/index.html && echo "slides: $(SLIDES_OUT)/index.html"
endif

slides-pdf: slides-md
	@$(SLIDES_MARP) --no-stdin --html --pdf --theme-set slides/theme.css --allow-local-files \
	    $(SLIDES_OUT)/deck.md -o $(SLIDES_OUT)/deck.pdf 2>&1 | grep -v '^\[  INFO \]' || true
	@test -s $(SLIDES_OUT)/deck.pdf && echo "slides: $(SLIDES_OUT)/deck.pdf"

test-slides: slides-deps
	@BUILD=$(BUILD) node tests/slides/run.mjs

