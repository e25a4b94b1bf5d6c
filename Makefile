# GPU teaching lab: tiled matrix multiplication and parallel reduction.
#
#   make check              check every lab (your work in labs/)
#   make check LAB=03       check one lab (or LAB=3, LAB="03 04", `make check` in a lab folder)
#   make check TREE=dir     check the lab files of another folder laid out like labs/
#   make solutions          check every reference solution, with the performance ladder
#   make test               the project's own tests: every lab built, end-to-end checks, CUnit
#   make doctor             what is installed, what is missing, which backend runs
#   make textbook           the textbook's reduction kernels, timed, as a baseline
#   make bench-emu          the CPU emulator's speed (lane accesses per second, memory)
#   make grade SUBMISSIONS=dir [LAB=NN]   grade a class in a sandbox: grades.csv, JUnit XML, feedback
#   make autograder LAB=NN  the Gradescope autograder zip for one lab
#   make slides             the lecture deck, build/slides/index.html (slides-pdf: the PDF)
#   make sweep LAB=NN       on a GPU: every kernel and the library over a range of sizes, table and chart
#   make readme-ladder RESULTS=FILE   README.md's ladder table from a results JSON
#   make handout [OUT=dir]  the students' repository: no answers, Classroom autograding
#   make clean
#
# Options: GPU_ARCH=sm_90 (default: the detected GPU), JSON=report.json, PROFILE=1 (Nsight Compute
# counters), SEED=N (other inputs), TIMEOUT=S (processor seconds per kernel run), BACKEND=gpu|emu
# (default: the GPU when one answers, else the CPU emulator), VARIANT=name (one kernel),
# FAST=1 (on a GPU, skip the compute-sanitizer checks: for timing, never for grading),
# VIEW=1 (check/solutions: also an HTML report per lab that draws every warp's accesses,
# build/report/NN/index.html; build/report/solutions/NN for solutions), JOBS=N (on the emulator,
# a lab's kernels checked N at a time, the same report; default: the cores), TRAFFIC=1 (check:
# the traffic table for every kernel, the failing ones too), V=1 (the build's commands).

SHELL := /bin/bash
.DEFAULT_GOAL := help
# The build's commands are not shown (the compiler's warnings and errors are); V=1 shows them.
Q := $(if $(filter 1,$(V)),,@)

NVCC     ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc),nvcc)
CC       ?= gcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
BUILD    ?= build

# Backend: the GPU when a CUDA device answers, otherwise the CPU emulator (emu/),
# which runs the same .cu files. BACKEND=gpu or BACKEND=emu forces one.
HAVE_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo yes)
BACKEND  ?= $(if $(HAVE_GPU),gpu,emu)
ifeq ($(BACKEND),emu)
# nvcc does not warn about unused parameters, and an unfilled skeleton has them.
LAB_NVCC := emu/emucc
BACKEND_NVCCFLAGS := -Xcompiler -Wno-unused-parameter
# Lab programs are relinked when the emulator changes.
BACKEND_DEPS := $(wildcard emu/emucc emu/rewrite.c emu/src/*.c emu/src/*.h emu/include/*.h common/seal.c common/seal.h \
                            common/lab_fixes.h)
HOST_CUDA_FLAGS = -Iemu/include -DLAB_EMULATION
else ifeq ($(BACKEND),gpu)
LAB_NVCC := $(NVCC)
HOST_CUDA_FLAGS = -I$(CUDA_HOME)/include
else
$(error BACKEND=$(BACKEND): use gpu or emu)
endif
# Lab programs and the harness are built per backend; the checker once.
TARGET := $(BUILD)/$(BACKEND)

# The GPU's compute capability (sm_90 on an H100); sm_90 when no GPU answers.
DETECTED_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
GPU_ARCH ?= $(if $(DETECTED_ARCH),sm_$(DETECTED_ARCH),sm_90)

CFLAGS   ?= -O2
CFLAGS   += -std=c11 -Wall -Wextra -Wpedantic -Werror -Icommon
# Headers generated from the kit (tools/labs lab-h: the tasks' launch types, the manifests' defines);
# "-I DIR" with a space: the grader hides absolute paths from students, a path after a space.
GEN := $(BUILD)/gen
NVCCFLAGS ?= -O3
NVCCFLAGS += -std=c++17 -arch=$(GPU_ARCH) -lineinfo -Icommon -I $(GEN) -Xcompiler -Wall,-Wextra
# WERROR=1 (the project's tests): any compiler warning in a lab file is an error.
ifeq ($(WERROR),1)
NVCCFLAGS += -Werror=all-warnings -Xcompiler -Werror
endif
# Every copy a lab program makes goes through the harness first (it fails a launch
# function that copies device data to the host: only kernels compute); no executable stack.
LAB_LDFLAGS := -Xlinker --wrap=cudaMemcpy -Xlinker --wrap=cudaMemcpyAsync -Xlinker -z,noexecstack
# Every lab is described once, in its manifest (labs/NN-name/lab.manifest), read by tools/labs:
# the labs, their lab files, and those that launch kernels from the device (needs=device-launch),
# built with relocatable device code and the device runtime.
# (One question at parse time, every make asks it: "list=LAB file=LAB/FILE rdc=LAB library=NAME".)
LAB_FACTS := $(shell tools/labs facts)
ifneq ($(.SHELLSTATUS),0)
$(error tools/labs could not read the labs' manifests (it said why above))
endif
lab_facts = $(patsubst $(1)=%,%,$(filter $(1)=%,$(LAB_FACTS)))
LABS := $(call lab_facts,list)
LAB_FILES := $(call lab_facts,file)
RDC_LABS := $(call lab_facts,rdc)
# A lab whose manifest names an architecture (arch sm_90a: Hopper's wgmma) is compiled for it
# alone on a GPU, -gencode=arch=compute_90a,code=sm_90a, in place of -arch=$(GPU_ARCH); the
# emulator ignores both. $(1): the lab folder.
comma := ,
lab_arch = $(patsubst $(1):%,%,$(filter $(1):%,$(call lab_facts,arch)))
lab_nvccflags = $(if $(call lab_arch,$(1)),$(filter-out -arch=%,$(NVCCFLAGS)) \
    -gencode=arch=$(subst sm_,compute_,$(call lab_arch,$(1)))$(comma)code=$(call lab_arch,$(1)),$(NVCCFLAGS))
ifdef LAB
# LAB=3 is lab 03
override LAB := $(foreach lab,$(LAB),$(if $(filter 0 1 2 3 4 5 6 7 8 9,$(lab)),0$(lab),$(lab)))
SELECTED := $(filter $(LAB) $(addsuffix -%,$(LAB)),$(LABS))
ifeq ($(SELECTED),)
$(error LAB=$(LAB) matches no lab; the labs are: $(LABS))
endif
else
SELECTED := $(LABS)
endif

# labs/03-reduce-divergence/reduce_divergence.cu: $(1) the tree, $(2) the lab folder; the lab file
# is the one its manifest names
lab_source = $(1)/$(2)/$(notdir $(filter $(2)/%,$(LAB_FILES)))

# The tasks (tasks/TASK.c): each built into the harness (its side only, LAB_HARNESS) and into the
# checker; the harness's list of them is generated from the folder.
TASK_SRCS := $(wildcard tasks/*.c)
HARNESS_OBJS := $(TARGET)/common/harness.o $(TARGET)/common/labio.o $(TARGET)/common/task_list.o \
                $(patsubst tasks/%.c,$(TARGET)/common/task_%.o,$(TASK_SRCS))
# On a GPU the harness flushes the L2 with a kernel of its own (none to flush in the emulator),
# and seals the program with the CUDA driver's list of system calls (common/seal_gpu.c; the
# emulator's runtime holds its own seal), libseccomp linked in statically.
# lab_tensor_map_2d (lab 10's TMA) is the harness's on a GPU (common/lab_tensor_map.c), the
# emulator's runtime's on the CPU.
ifeq ($(BACKEND),gpu)
HARNESS_OBJS += $(TARGET)/common/l2_flush.o $(TARGET)/common/seal.o $(TARGET)/common/seal_gpu.o \
                $(TARGET)/common/lab_tensor_map.o
LAB_LDFLAGS += $(shell $(CC) -print-file-name=libseccomp.a)
endif
CHECKER := $(BUILD)/checker/check
CHECKER_SRCS := $(filter-out checker/main.c,$(wildcard checker/*.c)) common/labio.c common/inputs.c \
                $(TASK_SRCS) $(wildcard checker/models/*.c)
CHECKER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CHECKER_SRCS)) $(BUILD)/checker/lab_table.o
# tools/labs and the manifests: the sources of everything generated from them
MANIFESTS := $(wildcard labs/*/lab.manifest checker/textbook/lab.manifest)

.PHONY: sweep sweep-needs-gpu readme-ladder todos
.PHONY: signatures separation
.PHONY: help check solutions textbook bench-emu test test-view build-labs build-solutions build-all clean tools doctor handout
# A copy of the kit without the reference solutions (the students' handout, make handout) does
# not offer what needs them: help leaves them out, and asking for one stops with the reason.
NEEDS_SOLUTIONS := solutions signatures build-solutions build-all textbook test test-view test-figures bench-emu sweep \
                   readme-ladder grade autograder test-grader slides slides-pdf slides-md slides-deps test-slides \
                   handout todos
NO_SOLUTIONS := $(if $(wildcard solutions/*/*.cu),,yes)
ifeq ($(NO_SOLUTIONS)$(if $(filter $(NEEDS_SOLUTIONS),$(MAKECMDGOALS)),yes),yesyes)
$(error make $(firstword $(filter $(NEEDS_SOLUTIONS),$(MAKECMDGOALS))) needs the reference solutions, and this copy of the kit has none (make check checks your labs))
endif
help:
	@sed -n '/^$$/q;s/^# \{0,1\}//p' Makefile $(if $(NO_SOLUTIONS),| grep -vE '^  make ($(subst $(eval) ,|,$(strip $(NEEDS_SOLUTIONS))))( |$$)')

# make handout [OUT=dir] [LAB=NN]: the students' repository (tools/handout/build), a git repository
# of one commit to push as a GitHub Classroom template: the labs (LAB: those only), the checker and
# the emulator, the deck's student edition, the Classroom autograding; no answer anywhere.
handout:
	@$(MAKE) --no-print-directory slides STUDENT=1
	@tools/handout/build --deck $(BUILD)/slides-student/index.html $(or $(OUT),$(BUILD)/handout) $(SELECTED)

# What each target needs is installed (as root) or named in one line by tools/setup,
# the one place that knows every dependency. Every rule that compiles or runs a tool waits for
# `tools` (an order-only prerequisite): one tools/setup run for the build and its backend (and
# the grader, for a grading goal: grader/grader.mk), so a fresh machine gets one apt-get run,
# and a user who is not root one `sudo` line.
SETUP_FEATURES := build $(if $(filter emu,$(BACKEND)),emu,gpu)
tools:
	@tools/setup $(SETUP_FEATURES)

# What is installed, what is missing, and which backend `make` will use.
doctor:
	@tools/setup --doctor

$(TARGET)/common/%.o: common/%.c common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(HOST_CUDA_FLAGS) -c $< -o $@

# A task's harness side, and the harness's list of tasks (made from the folder as it is compiled:
# no generated file for a prebuilt object to be older than).
$(TARGET)/common/task_%.o: tasks/%.c common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DLAB_HARNESS -c $< -o $@

$(TARGET)/common/task_list.o: tools/labs $(TASK_SRCS) | tools
	@mkdir -p $(@D)
	$(Q)tools/labs task-list | $(CC) $(CFLAGS) -x c -c - -o $@

$(TARGET)/common/l2_flush.o: common/l2_flush.cu common/lab.h | tools $(GEN)/lab_generated.h
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVCCFLAGS) -c $< -o $@

# What lab files see of the tasks and the manifests (lab.h includes it). Written to a file of
# its own and renamed: make test runs the nvcc and the emulator builds at once, and both make it.
$(GEN)/lab_generated.h: tools/labs $(TASK_SRCS) $(MANIFESTS) | tools
	@mkdir -p $(@D)
	@tools/labs lab-h > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@

$(BUILD)/common/%.o: common/%.c common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/checker/%.o: checker/%.c checker/*.h $(wildcard checker/models/*.h) common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Ichecker -c $< -o $@

$(BUILD)/tasks/%.o: tasks/%.c checker/*.h common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Ichecker -c $< -o $@

# The checker's table of labs, from the manifests (an unknown task or model: a compile error
# that names the manifest's line).
$(BUILD)/checker/lab_table.c: tools/labs $(MANIFESTS) $(TASK_SRCS) $(wildcard checker/models/*.c) | tools
	@mkdir -p $(@D)
	@tools/labs c-table > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@

$(BUILD)/checker/lab_table.o: $(BUILD)/checker/lab_table.c checker/*.h common/*.h | tools
	$(Q)$(CC) $(CFLAGS) -Ichecker -c $< -o $@

# The checker reads each lab's shipped TODO list from this kit's labs/ (not from the tree it checks).
$(BUILD)/checker/main.o: CFLAGS += -DCHECK_KIT='"$(CURDIR)"'

$(CHECKER): $(BUILD)/checker/main.o $(CHECKER_OBJS) | tools
	$(Q)$(CC) $(CFLAGS) $^ -o $@ -ljansson -lm

# One program per lab folder: the student's (or the solution's) .cu file + the harness.
# $(1): the tree holding the lab folders, $(2): the lab folder, $(3): where its program goes.
# LAB_WARNINGS=0: the compiler's warnings left out (a second build of the same file, which
# printed them once already).
define LAB_PROGRAM
$(3)/$(2)/lab: $(call lab_source,$(1),$(2)) common/lab.h $(GEN)/lab_generated.h tools/lab-policy $(HARNESS_OBJS) $(BACKEND_DEPS) | tools
	@mkdir -p $$(@D)
	$(if $(Q),@echo "building $$<")
	$(Q)tools/lab-policy --backend $(BACKEND) --generated $(GEN) $$< $$(@D)/lab_kernels.o -- \
	    $(LAB_NVCC) $(call lab_nvccflags,$(2)) $(BACKEND_NVCCFLAGS) $(if $(filter 0,$(LAB_WARNINGS)),-w) $(if $(filter $(2),$(RDC_LABS)),-rdc=true) -c $$< -o $$(@D)/lab_kernels.o
	$(Q)$(LAB_NVCC) $(call lab_nvccflags,$(2)) $(if $(filter $(2),$(RDC_LABS)),-rdc=true) $$(@D)/lab_kernels.o $(HARNESS_OBJS) $(LAB_LDFLAGS) -o $$@ $(if $(filter $(2),$(RDC_LABS)),-lcudadevrt)
endef
# On the emulator, beside it: lab-fast, the same file built without the access hooks (emucc
# --fast) and judged by the same policy, built after lab and without warnings (a compiler's
# words on the file come once, from lab's build). The checker no longer runs it (the large cases
# run in lab with EMU_CHECKS=count: counted, and no kernel reaches host memory); EMU_FAST=0
# leaves it out.
EMU_FAST ?= 1
ifeq ($(BACKEND)$(EMU_FAST),emu1)
LAB_FAST := lab-fast
define LAB_FAST_PROGRAM
$(3)/$(2)/lab-fast: $(call lab_source,$(1),$(2)) common/lab.h $(GEN)/lab_generated.h tools/lab-policy $(HARNESS_OBJS) $(BACKEND_DEPS) | tools $(3)/$(2)/lab
	@mkdir -p $$(@D)
	$(Q)tools/lab-policy --backend $(BACKEND) --generated $(GEN) $$< $$(@D)/lab_kernels_fast.o -- \
	    $(LAB_NVCC) --fast $(call lab_nvccflags,$(2)) $(BACKEND_NVCCFLAGS) -w -c $$< -o $$(@D)/lab_kernels_fast.o
	$(Q)$(LAB_NVCC) $(call lab_nvccflags,$(2)) $$(@D)/lab_kernels_fast.o $(HARNESS_OBJS) $(LAB_LDFLAGS) -o $$@
endef
else
LAB_FAST :=
LAB_FAST_PROGRAM :=
endif
# A lab's programs in a folder: $(1) the folder, $(2) the lab folders.
lab_programs = $(foreach lab,$(2),$(addprefix $(1)/$(lab)/,lab $(LAB_FAST)))
$(foreach lab,$(LABS),$(eval $(call LAB_PROGRAM,labs,$(lab),$(TARGET)/labs)))
$(foreach lab,$(LABS),$(eval $(call LAB_PROGRAM,solutions,$(lab),$(TARGET)/solutions)))
$(eval $(call LAB_PROGRAM,checker,textbook,$(TARGET)/checker))
$(foreach lab,$(LABS),$(eval $(call LAB_FAST_PROGRAM,labs,$(lab),$(TARGET)/labs)))
$(foreach lab,$(LABS),$(eval $(call LAB_FAST_PROGRAM,solutions,$(lab),$(TARGET)/solutions)))
$(eval $(call LAB_FAST_PROGRAM,checker,textbook,$(TARGET)/checker))

# The libraries the top labs are measured against (the manifests' library lines: CUB, cuBLAS),
# each in a program of its own, checker/library/NAME.cu, for a GPU only: no lab program links them.
# Their harness is not sealed (LAB_SEAL_OFF): no lab code runs in them, and cuBLAS sets itself up
# when a launch function first calls it.
LIBRARY_DIR := $(TARGET)/checker/library
LIBRARY_PROGRAMS := $(addprefix $(LIBRARY_DIR)/,$(call lab_facts,library))
LIBRARY_HARNESS_OBJS := $(TARGET)/checker/library-harness.o $(filter-out $(TARGET)/common/harness.o,$(HARNESS_OBJS))
$(TARGET)/checker/library-harness.o: common/harness.c common/*.h | tools
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(HOST_CUDA_FLAGS) -DLAB_SEAL_OFF -c $< -o $@
$(LIBRARY_DIR)/%: checker/library/%.cu common/lab.h $(GEN)/lab_generated.h $(LIBRARY_HARNESS_OBJS) | tools
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVCCFLAGS) -c $< -o $@.o
	$(Q)$(NVCC) $(NVCCFLAGS) $@.o $(LIBRARY_HARNESS_OBJS) $(LAB_LDFLAGS) -lcublas -o $@
LIBRARY_DEP := $(if $(filter gpu,$(BACKEND)),$(LIBRARY_PROGRAMS))
LIBRARY_ARGS := $(if $(filter gpu,$(BACKEND)),--library $(LIBRARY_DIR))

# TREE=dir: `make check` checks the lab files of another folder laid out like labs/
# (a student's submission, the known-bad corpus); its programs go to $(BUILD)/<backend>/tree,
# or to TREE_BUILD (the deck builds a changed solution there, beside a report's build).
CHECK_TREE := $(if $(TREE),$(patsubst %/,%,$(TREE)),labs)
TREE_BUILD ?= $(TARGET)/tree
CHECK_BUILD := $(if $(TREE),$(TREE_BUILD),$(TARGET)/labs)
ifdef TREE
$(foreach lab,$(SELECTED),$(eval $(call LAB_PROGRAM,$(CHECK_TREE),$(lab),$(CHECK_BUILD))))
$(foreach lab,$(SELECTED),$(eval $(call LAB_FAST_PROGRAM,$(CHECK_TREE),$(lab),$(CHECK_BUILD))))
endif

build-labs: $(call lab_programs,$(CHECK_BUILD),$(SELECTED))
build-solutions: $(call lab_programs,$(TARGET)/solutions,$(SELECTED))

ANNOUNCE := $(if $(filter emu,$(BACKEND)),@echo "$(if $(HAVE_GPU),BACKEND=emu: emulating on the CPU,no CUDA device: emulating on the CPU); times are not GPU times")

CHECK_ARGS = --backend $(BACKEND) $(if $(JSON),--json $(JSON)) $(if $(filter 1,$(PROFILE)),--profile) $(if $(COUNTERS_CSV),--counters-csv $(COUNTERS_CSV)) \
             $(if $(SEED),--seed $(SEED)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(filter 1,$(FAST)),--fast) \
             $(if $(VARIANT),--variant $(VARIANT)) $(if $(filter emu,$(BACKEND)),--jobs $(JOBS)) \
             $(if $(filter 1,$(TRAFFIC)),--traffic) $(CHECK_EXTRA)

# On a GPU the emulator's diagnostics run too where its toolchain is installed (tools/setup
# emu): the same lab files are built for it, and the checker runs them on the emulator's
# cases. EMU_DIAG=0 turns that off; EMU_DIAG_BUILD=dir uses emulator programs built elsewhere.
ifeq ($(BACKEND),gpu)
EMU_DIAG ?= $(if $(filter 1,$(FAST)),0,$(shell tools/setup --check emu >/dev/null 2>&1 && echo 1))
endif
# emu_diag_build: $(1) is the build target for the emulator (build-labs, build-solutions);
# emu_diag_args: $(1) is the folder of its programs under $(BUILD)/emu.
emu_diag_build = $(if $(and $(filter 1,$(EMU_DIAG)),$(if $(EMU_DIAG_BUILD),,yes)),@$(MAKE) --no-print-directory BACKEND=emu LAB_WARNINGS=0 $(1))
emu_diag_args = $(if $(EMU_DIAG_BUILD),--emu-build $(EMU_DIAG_BUILD),$(if $(filter 1,$(EMU_DIAG)),--emu-build $(BUILD)/emu/$(1)))

# VIEW=1: the checker writes an HTML report per lab (checker/view.c). Each lab is built on its
# own with its compiler output kept in build.log, so a lab that does not build still gets a page
# saying so; on a GPU the pictures come from the emulator's build of the same files, when the
# emulator is installed. $(1): the build target, $(2): the folder of its programs.
ifeq ($(VIEW),1)
# the path the checker prints: from a lab's folder (its Makefile sets FROM_LAB_FOLDER) the whole path
VIEW_DIR := $(if $(FROM_LAB_FOLDER),$(abspath $(BUILD)/report),$(BUILD)/report)
VIEW_BUILD = @for lab in $(SELECTED); do mkdir -p $(2)/$$lab; \
	    $(MAKE) --no-print-directory $(addprefix $(2)/$$lab/,lab $(LAB_FAST)) 2>&1 | tee $(2)/$$lab/build.log; \
	    [ $${PIPESTATUS[0]} = 0 ] || rm -f $(addprefix $(2)/$$lab/,lab $(LAB_FAST)); done \
	$(if $(filter gpu,$(BACKEND)),; ! tools/setup --check emu 2>/dev/null || $(MAKE) --no-print-directory BACKEND=emu LAB_WARNINGS=0 $(1) || true)
VIEW_ARGS = --view $(VIEW_DIR) $(if $(filter gpu,$(BACKEND)),--view-build $(patsubst $(TARGET)/%,$(BUILD)/emu/%,$(1)))
endif

check: $(CHECKER) $(LIBRARY_DEP) $(if $(filter 1,$(VIEW)),,build-labs)
	$(call VIEW_BUILD,build-labs,$(CHECK_BUILD))
	$(ANNOUNCE)
	$(call emu_diag_build,build-labs)
	@$(CHECKER) --tree $(CHECK_TREE) --build $(CHECK_BUILD) $(CHECK_ARGS) $(call emu_diag_args,$(if $(TREE),tree,labs)) $(call VIEW_ARGS,$(CHECK_BUILD)) $(LIBRARY_ARGS) $(SELECTED)

solutions: $(CHECKER) $(LIBRARY_DEP) $(if $(filter 1,$(VIEW)),,build-solutions)
	$(call VIEW_BUILD,build-solutions,$(TARGET)/solutions)
	$(ANNOUNCE)
	$(call emu_diag_build,build-solutions)
	@$(CHECKER) --tree solutions --build $(TARGET)/solutions --ladder $(CHECK_ARGS) $(if $(filter emu,$(BACKEND)),--signature-exact) $(call emu_diag_args,solutions) $(call VIEW_ARGS,$(TARGET)/solutions) $(LIBRARY_ARGS) $(SELECTED)

# make signatures [LAB=NN]: each lab's rung signature, labs/NN-name/signature, from its solutions
# on the emulator (every counter on every counted case). Run it after changing a solution or what
# the emulator counts, and commit it: the checker holds lab files to it (checker/pattern.c), and
# make solutions fails while it is out of date.
signatures: $(CHECKER)
	@$(MAKE) --no-print-directory BACKEND=emu build-solutions
	@rm -f $(BUILD)/signatures.record
	@$(CHECKER) --tree solutions --build $(BUILD)/emu/solutions --backend emu --jobs $(JOBS) \
	    --signatures-out $(BUILD)/signatures.record $(SELECTED) >/dev/null
	@tools/signatures $(BUILD)/signatures.record

# The separation matrix: every rung's signature judged as every other rung of its lab, by the
# rung's own rules; a pair not told apart fails (make test runs it) unless the manifest names it
# same-pattern.
separation: $(CHECKER)
	@$(CHECKER) --separation $(SELECTED)

# make todos [LAB=NN]: each lab's shipped TODO list, labs/NN-name/todos.shipped, from its skeleton
# as it is now. Run it after changing a skeleton and commit the list with it: the checker lists a
# student's unfinished TODOs from it, and tests/skeletons.sh fails while it is out of date.
todos: $(CHECKER)
	@for lab in $(SELECTED); do file=$$(tools/labs files | sed -n "s|^$$lab/||p"); \
	    $(CHECKER) --todos-shipped labs/$$lab/$$file $$lab/$$file > labs/$$lab/todos.shipped.tmp && \
	    mv labs/$$lab/todos.shipped.tmp labs/$$lab/todos.shipped && echo "labs/$$lab/todos.shipped" || exit 1; done

# make sweep LAB=NN: every kernel of the lab's solution, and its library, timed over a range of
# sizes on a GPU (n = 2^16..2^28, matrices 256..8192): build/sweep/sweep.csv, the table
# build/sweep/sweep.md and a chart per lab, build/sweep/<lab>.svg.
sweep-needs-gpu:
	@if [ "$(BACKEND)" != gpu ]; then echo "sweep: it times kernels, and the emulator's times are CPU times: it needs a GPU (BACKEND=gpu)" >&2; exit 2; fi
# The measuring needs no gnuplot: on a GPU machine that cannot install it, the table is still
# written and the chart can be drawn anywhere later with tools/sweep-chart CSV DIR.
sweep: sweep-needs-gpu $(CHECKER) $(LIBRARY_DEP) build-solutions
	@mkdir -p $(BUILD)/sweep
	@$(CHECKER) --tree solutions --build $(TARGET)/solutions --backend gpu --sweep $(BUILD)/sweep/sweep.csv $(LIBRARY_ARGS) $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(SELECTED)
	@if tools/setup plot; then tools/sweep-chart $(BUILD)/sweep/sweep.csv $(BUILD)/sweep; \
	else tools/sweep-chart --table-only $(BUILD)/sweep/sweep.csv $(BUILD)/sweep; \
	echo "sweep: no gnuplot here: the chart can be drawn elsewhere with tools/sweep-chart $(BUILD)/sweep/sweep.csv DIR"; fi

# make readme-ladder RESULTS="FILE..." [LADDER_LABS="08 09"]: README.md's ladder table (between its
# ladder markers) regenerated from results JSONs (make solutions JSON=FILE), by tools/ladder-table:
# a table per file (one device each), of the labs it holds. By default its labs are those with a
# library baseline in their manifest.
LADDER_LABS ?= $(shell tools/labs library)
readme-ladder:
	@test -n "$(RESULTS)" || { echo "readme-ladder: name the results: RESULTS=docs/results/.../solutions.json" >&2; exit 2; }
	@tools/setup ladder
	@for results in $(RESULTS); do tools/ladder-table $$results $(LADDER_LABS) || exit 1; done > $(BUILD)/ladder.md.tmp
	@tools/readme-section ladder $(BUILD)/ladder.md.tmp
	@rm -f $(BUILD)/ladder.md.tmp
	@echo "README.md: ladder table from $(RESULTS)"

# make readme-labs: README.md's table of labs (between its labs markers) from the manifests.
.PHONY: readme-labs
readme-labs:
	@mkdir -p $(BUILD)
	@tools/labs readme-table > $(BUILD)/labs.md.tmp
	@tools/readme-section labs $(BUILD)/labs.md.tmp
	@rm -f $(BUILD)/labs.md.tmp
	@echo "README.md: table of labs from the manifests"

# The project's tests, on any machine (no GPU needed):
#  1. every lab and solution compiles and links with nvcc (and for the emulator),
#     without a single warning,
#  2. end to end on the CPU emulator: every solution passes with traffic equal to
#     the model, every untouched skeleton fails naming its TODOs; every skeleton is
#     its solution outside the TODO regions; every known-bad submission fails for
#     its named reason (tests/known-bad),
#  3. the emulator's CUnit suite, then the checker's CUnit suite.
ALL_PROGRAMS := $(call lab_programs,$(TARGET)/labs,$(LABS)) $(call lab_programs,$(TARGET)/solutions,$(LABS)) \
                $(call lab_programs,$(TARGET)/checker,textbook) $(LIBRARY_DEP)
build-all: $(ALL_PROGRAMS) $(CHECKER)

# The emulator's speed: every solution emulated, traced accesses per second (tools/bench-emu).
BENCH_N ?= 4194304
bench-emu:
	@$(MAKE) --no-print-directory BACKEND=emu build-solutions $(CHECKER) $(BUILD)/emu/bench/rss_reduce
	@BUILD=$(BUILD) BENCH_N=$(BENCH_N) tools/bench-emu $(SELECTED)

$(BUILD)/emu/bench/rss_reduce: emu/src/bench/rss_reduce.cu $(BACKEND_DEPS) | tools
	@mkdir -p $(@D)
	$(Q)emu/emucc -O3 -std=c++17 -Xcompiler -Wall,-Wextra -c $< -o $@.o
	$(Q)emu/emucc $@.o -o $@

# The HTML report's tests (VIEW=1): pictures against the counters, failures, headless Chromium.
test-view: $(CHECKER) slides-deps
	@BUILD=$(BUILD) node tests/view/run.mjs

# The textbook's reduction kernels on the timed case, to hold the solutions against.
textbook: $(CHECKER) $(call lab_programs,$(TARGET)/checker,textbook)
	$(ANNOUNCE)
	@$(CHECKER) --tree checker --build $(TARGET)/checker --timed-only --ladder $(CHECK_ARGS) textbook

# nvcc builds only where the CUDA Toolkit is installed (a machine with none runs the
# rest, and says so).
HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo yes)
# Jobs at a time for the tests' builds and runs (the corpus, the end-to-end checks): the cores.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# The steps and their scheduling on the cores: tools/test.
test:
	@BUILD=$(BUILD) JOBS=$(JOBS) HAVE_NVCC=$(HAVE_NVCC) tools/test

# Every measured figure of the READMEs names the committed run it is from (tests/docs/figures.mjs).
.PHONY: test-figures
test-figures:
	@tools/setup slides
	@node tests/docs/figures.mjs

clean:
	rm -rf $(BUILD)
	$(if $(wildcard tests/Makefile),@$(MAKE) --no-print-directory -C tests clean BUILD=$(abspath $(BUILD))/tests)
include grader/grader.mk
include slides/slides.mk
