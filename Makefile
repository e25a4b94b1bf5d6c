# GPU teaching lab: tiled matrix multiplication and parallel reduction.
#
#   make check              check every lab (your work in labs/)
#   make check LAB=03       check one lab (also: `make check` inside a lab folder)
#   make solutions          check every reference solution, with the performance ladder
#   make test               the project's own tests (CUnit) and a build of every lab
#   make clean
#
# Options: GPU_ARCH=sm_90 (default: the detected GPU), JSON=report.json, PROFILE=1 (Nsight Compute counters).

SHELL := /bin/bash
.DEFAULT_GOAL := help

NVCC     ?= nvcc
CC       ?= gcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
BUILD    ?= build

# The GPU's compute capability (sm_90 on an H100); sm_90 when no GPU answers.
DETECTED_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
GPU_ARCH ?= $(if $(DETECTED_ARCH),sm_$(DETECTED_ARCH),sm_90)

CFLAGS   ?= -O2
CFLAGS   += -std=c11 -Wall -Wextra -Wpedantic -Werror -Icommon
HOST_CUDA_FLAGS := -I$(CUDA_HOME)/include
NVCCFLAGS ?= -O3
NVCCFLAGS += -std=c++17 -arch=$(GPU_ARCH) -lineinfo -Icommon -Xcompiler -Wall,-Wextra
# Labs that launch kernels from the device need relocatable device code and the device runtime.
RDC_LABS := 06-dynamic-parallelism

LABS := $(sort $(notdir $(wildcard labs/[0-9][0-9]-*)))
ifdef LAB
SELECTED := $(filter $(LAB) $(LAB)-%,$(LABS))
ifeq ($(SELECTED),)
$(error LAB=$(LAB) matches no lab; the labs are: $(LABS))
endif
else
SELECTED := $(LABS)
endif

# labs/03-reduce-divergence/reduce_divergence.cu -> the one .cu file of a lab folder
lab_source = $(wildcard $(1)/$(2)/*.cu)

HARNESS_OBJS := $(BUILD)/common/harness.o $(BUILD)/common/labio.o
CHECKER := $(BUILD)/checker/check
CHECKER_SRCS := $(filter-out checker/main.c,$(wildcard checker/*.c)) common/labio.c common/inputs.c
CHECKER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CHECKER_SRCS))

.PHONY: help check solutions test build-labs build-solutions clean tools
help:
	@sed -n '3,10p' Makefile | sed 's/^# \{0,1\}//'

tools:
	@command -v $(NVCC) >/dev/null || { echo "nvcc not found: install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin/ on PATH"; exit 1; }
	@command -v $(CC) >/dev/null || { echo "$(CC) not found: sudo apt-get install -y build-essential"; exit 1; }

$(BUILD)/common/%.o: common/%.c common/*.h | tools
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HOST_CUDA_FLAGS) -c $< -o $@

$(BUILD)/checker/%.o: checker/%.c checker/*.h common/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(CHECKER): $(BUILD)/checker/main.o $(CHECKER_OBJS)
	$(CC) $(CFLAGS) $^ -o $@ -lm

# One program per lab folder: the student's (or the solution's) .cu file + the harness.
define LAB_PROGRAM
$(BUILD)/$(1)/$(2)/lab: $(call lab_source,$(1),$(2)) common/lab.h $(HARNESS_OBJS) | tools
	@mkdir -p $$(@D)
	$(NVCC) $(NVCCFLAGS) $(if $(filter $(2),$(RDC_LABS)),-rdc=true) -c $$< -o $$(@D)/lab_kernels.o
	$(NVCC) $(NVCCFLAGS) $(if $(filter $(2),$(RDC_LABS)),-rdc=true) $$(@D)/lab_kernels.o $(HARNESS_OBJS) -o $$@ $(if $(filter $(2),$(RDC_LABS)),-lcudadevrt)
endef
$(foreach lab,$(LABS),$(eval $(call LAB_PROGRAM,labs,$(lab))))
$(foreach lab,$(LABS),$(eval $(call LAB_PROGRAM,solutions,$(lab))))

build-labs: $(foreach lab,$(SELECTED),$(BUILD)/labs/$(lab)/lab)
build-solutions: $(foreach lab,$(SELECTED),$(BUILD)/solutions/$(lab)/lab)

CHECK_ARGS = $(if $(JSON),--json $(JSON)) $(if $(filter 1,$(PROFILE)),--profile) $(if $(QUICK),--quick)

check: $(CHECKER) build-labs
	@$(CHECKER) --tree labs --build $(BUILD)/labs $(CHECK_ARGS) $(SELECTED)

solutions: $(CHECKER) build-solutions
	@$(CHECKER) --tree solutions --build $(BUILD)/solutions --ladder $(CHECK_ARGS) $(SELECTED)

test:
	@$(MAKE) --no-print-directory -C tests

clean:
	rm -rf $(BUILD)
	@$(MAKE) --no-print-directory -C tests clean
