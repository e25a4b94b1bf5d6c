/* labio: the file format between the checker and a lab program.
 *
 * The checker writes an input file of named records (sizes, seeds, input arrays);
 * the lab program reads it, runs one kernel variant over every case in it and
 * writes an output file of named records (results, times, device facts).
 * A record is self-describing, so a truncated file (a crashed program) still
 * yields every record written before the crash.
 *
 *   file   := magic record*
 *   magic  := "LABIO001"                      (8 bytes)
 *   record := name  (char[48], NUL padded)
 *             type  (uint32: LABIO_I64 ...)
 *             pad   (uint32, zero)
 *             count (uint64: elements, or bytes for text)
 *             data  (count elements, little endian)
 */
#ifndef LABIO_H
#define LABIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LABIO_NAME_MAX 48

/* F16 and BF16: 16-bit floats as their bits (IEEE binary16, bfloat16), for lab 10's inputs */
typedef enum {
    LABIO_I64 = 1,
    LABIO_F64 = 2,
    LABIO_I32 = 3,
    LABIO_F32 = 4,
    LABIO_TEXT = 5,
    LABIO_F16 = 6,
    LABIO_BF16 = 7
} labio_type;

typedef struct {
    char name[LABIO_NAME_MAX];
    labio_type type;
    uint64_t count;
    void *data; /* count elements of type; text is NUL terminated (count excludes the NUL) */
} labio_record;

typedef struct {
    labio_record *records;
    size_t count;
    int truncated; /* 1 when the file ended inside a record */
} labio_file;

size_t labio_type_size(labio_type type);

/* Writing: open, add records, close. Each record is flushed as it is written. */
FILE *labio_create(const char *path);
int labio_begin(FILE *f); /* the magic, on a stream opened elsewhere (0, or -1) */
int labio_put(FILE *f, const char *name, labio_type type, const void *data, uint64_t count);
int labio_put_i64(FILE *f, const char *name, int64_t value);
int labio_put_f64(FILE *f, const char *name, double value);
int labio_put_text(FILE *f, const char *name, const char *text);

/* Reading: returns 0 and fills *file, or -1 with a message in err. */
int labio_read(const char *path, labio_file *file, char *err, size_t err_size);
/* The same, with the data of every record on whole pages of its own (LABIO_PAGE bytes,
 * labio_page_span(record) of them), so that they can be protected one by one. */
#define LABIO_PAGE 4096u
int labio_read_paged(const char *path, labio_file *file, char *err, size_t err_size);
size_t labio_page_span(const labio_record *record);
void labio_free(labio_file *file);
/* The name of the first record that appears twice (a file one writer writes once has none), or NULL. */
const char *labio_first_duplicate(const labio_file *file);

/* Lookup by name; NULL when absent or of another type. */
const labio_record *labio_find(const labio_file *file, const char *name, labio_type type);
/* Formats a record name (printf style) and looks it up. */
const labio_record *labio_findf(const labio_file *file, labio_type type, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int labio_get_i64(const labio_file *file, const char *name, int64_t *value);
int labio_get_f64(const labio_file *file, const char *name, double *value);

/* Per-case records are named "c<case>.<key>" ("c0.out", "c2.measured.gld_inst");
 * case -1 names the file-wide record "<key>". These are the only places that spell it. */
void labio_case_name(char *name, size_t size, int case_index, const char *key);
int labio_put_case(FILE *f, int case_index, const char *key, labio_type type, const void *data, uint64_t count);
int labio_put_case_i64(FILE *f, int case_index, const char *key, int64_t value);
int labio_put_case_text(FILE *f, int case_index, const char *key, const char *text);
const labio_record *labio_find_case(const labio_file *file, int case_index, const char *key, labio_type type);
int labio_get_case_i64(const labio_file *file, int case_index, const char *key, int64_t *value);

#ifdef __cplusplus
}
#endif
#endif
