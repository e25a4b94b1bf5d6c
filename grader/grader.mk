# Grading a class (included by the top Makefile; see grader/README.md).
#
#   make grade SUBMISSIONS=dir [LAB=NN] [OUT=dir] [FORCE=1] [SANDBOX=bwrap|none] [TIMEOUT=S] [JOBS=N]
#              [ENGINE=slurm [PARTITION=p] [ACCOUNT=a] [TIME_LIMIT=t] [SHARD_SIZE=n] [SUBMIT_ARGS=...] [WAIT=0]]
#   make autograder LAB=NN [AUTOGRADER=file.zip]    Gradescope's autograder zip for one lab
#   make test-grader                                the grader's tests (tests/grader/)
#
# The trusted pieces (the checker, the harness objects, the emulator's runtime and
# grade-report) are built here, outside any sandbox, before a student's code is touched;
# grader/grade then builds and runs each submission in the sandbox.

GRADE_REPORT := $(BUILD)/grader/grade-report
SANDBOX_FILTER := $(BUILD)/grader/sandbox.bpf
AUTOGRADER ?= $(BUILD)/autograder-$(firstword $(SELECTED)).zip

.PHONY: grade grade-tools autograder test-grader

# A grading goal asks tools/setup for the grader's feature (bubblewrap, zip) in the same run as
# the build's (the top Makefile's `tools`, which every rule here waits for).
ifneq ($(filter grade grade-tools test-grader autograder,$(MAKECMDGOALS)),)
SETUP_FEATURES += grade
endif

# The verdict classes are the checker's (checker/verdict.c: which a program may name itself).
# grade-report is one program of several parts, one per job (grader/report/).
GRADE_REPORT_SRCS := $(wildcard grader/report/*.c)
$(GRADE_REPORT): $(GRADE_REPORT_SRCS) grader/report/report.h checker/verdict.c checker/verdict.h | tools
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ichecker -Igrader/report $(GRADE_REPORT_SRCS) checker/verdict.c -o $@ -ljansson -lm

# The sandbox's system-call filter (grader/sandbox-filter.c), written once as BPF for bubblewrap.
$(SANDBOX_FILTER): grader/sandbox-filter.c | tools
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $(@D)/sandbox-filter -lseccomp
	$(@D)/sandbox-filter >$@.tmp && mv $@.tmp $@
	$(@D)/sandbox-filter --gpu >$(@D)/sandbox-gpu.bpf.tmp && mv $(@D)/sandbox-gpu.bpf.tmp $(@D)/sandbox-gpu.bpf

grade-tools: $(CHECKER) $(HARNESS_OBJS) $(GRADE_REPORT) $(SANDBOX_FILTER) | tools
ifeq ($(BACKEND),emu)
	@$(MAKE) -s --no-print-directory -C emu BUILD=$(abspath $(BUILD))/emu-runtime all
endif

grade: grade-tools
	@ROOT=$(CURDIR) BUILD=$(BUILD) CHECKER=$(CHECKER) GRADE_REPORT=$(GRADE_REPORT) GPU_ARCH=$(GPU_ARCH) \
	 grader/grade SUBMISSIONS="$(SUBMISSIONS)" BACKEND=$(BACKEND) $(if $(LAB),LAB=$(LAB)) $(if $(OUT),OUT="$(OUT)") \
	 $(if $(FORCE),FORCE=$(FORCE)) $(if $(SANDBOX),SANDBOX=$(SANDBOX)) $(if $(TIMEOUT),TIMEOUT=$(TIMEOUT)) \
	 $(if $(RUBRIC),RUBRIC="$(RUBRIC)") $(GRADE_ENGINE_ARGS)

# JOBS only when asked for (the top Makefile's default is the cores, the grader's own is 1 on a
# GPU); ENGINE=slurm and its options (grader/README.md).
GRADE_ENGINE_ARGS = $(if $(filter command line environment,$(origin JOBS)),JOBS=$(JOBS)) \
	$(foreach v,ENGINE PARTITION ACCOUNT TIME_LIMIT SHARD_SIZE WAIT,$(if $($(v)),$(v)="$($(v))")) \
	$(if $(SUBMIT_ARGS),SUBMIT_ARGS='$(SUBMIT_ARGS)')

autograder: | tools
	@test -n "$(LAB)" || { echo "make autograder: say which lab: make autograder LAB=03" >&2; exit 2; }
	@grader/autograder/package $(firstword $(SELECTED)) $(AUTOGRADER)

test-grader: grade-tools
	@BUILD=$(BUILD) tests/grader/test-grader.sh
