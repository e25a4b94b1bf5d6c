# Grading a class (included by the top Makefile; see grader/README.md).
#
#   make grade SUBMISSIONS=dir [LAB=NN] [OUT=dir] [FORCE=1] [SANDBOX=bwrap|none] [TIMEOUT=S]
#   make autograder LAB=NN [AUTOGRADER=file.zip]    Gradescope's autograder zip for one lab
#   make test-grader                                the grader's tests (tests/grader/)
#
# The trusted pieces (the checker, the harness objects, the emulator's runtime and
# grade-report) are built here, outside any sandbox, before a student's code is touched;
# grader/grade then builds and runs each submission in the sandbox.

GRADE_REPORT := $(BUILD)/grader/grade-report
AUTOGRADER ?= $(BUILD)/autograder-$(firstword $(SELECTED)).zip

.PHONY: grade grade-tools autograder test-grader

# The verdict classes are the checker's (checker/verdict.c: which a program may name itself).
$(GRADE_REPORT): grader/report.c checker/verdict.c checker/verdict.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ichecker grader/report.c checker/verdict.c -o $@ -ljansson -lm

grade-tools: $(CHECKER) $(HARNESS_OBJS) $(GRADE_REPORT)
	@tools/setup grade $(if $(filter emu,$(BACKEND)),emu)
ifeq ($(BACKEND),emu)
	@$(MAKE) -s --no-print-directory -C emu BUILD=$(abspath $(BUILD))/emu-runtime all
endif

grade: grade-tools
	@ROOT=$(CURDIR) BUILD=$(BUILD) CHECKER=$(CHECKER) GRADE_REPORT=$(GRADE_REPORT) GPU_ARCH=$(GPU_ARCH) \
	 grader/grade SUBMISSIONS="$(SUBMISSIONS)" BACKEND=$(BACKEND) $(if $(LAB),LAB=$(LAB)) $(if $(OUT),OUT="$(OUT)") \
	 $(if $(FORCE),FORCE=$(FORCE)) $(if $(SANDBOX),SANDBOX=$(SANDBOX)) $(if $(TIMEOUT),TIMEOUT=$(TIMEOUT)) \
	 $(if $(RUBRIC),RUBRIC="$(RUBRIC)")

autograder:
	@test -n "$(LAB)" || { echo "make autograder: say which lab: make autograder LAB=03" >&2; exit 2; }
	@grader/autograder/package $(firstword $(SELECTED)) $(AUTOGRADER)

test-grader: grade-tools
	@BUILD=$(BUILD) tests/grader/test-grader.sh
