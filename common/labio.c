/* labio: see labio.h for the format. */
#define _POSIX_C_SOURCE 200809L
#include "labio.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char LABIO_MAGIC[8] = {'L', 'A', 'B', 'I', 'O', '0', '0', '1'};

/* Upper bound on one record, so a corrupt count cannot make us allocate terabytes. */
#define LABIO_MAX_RECORD_BYTES ((uint64_t)1 << 34)

size_t labio_type_size(labio_type type)
{
    switch (type) {
    case LABIO_I64:
    case LABIO_F64: return 8;
    case LABIO_I32:
    case LABIO_F32: return 4;
    case LABIO_F16:
    case LABIO_BF16: return 2;
    case LABIO_TEXT: return 1;
    }
    return 0;
}

int labio_begin(FILE *f)
{
    return fwrite(LABIO_MAGIC, 1, sizeof LABIO_MAGIC, f) == sizeof LABIO_MAGIC && fflush(f) == 0 ? 0 : -1;
}

FILE *labio_create(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    if (labio_begin(f) != 0) {
        fclose(f);
        return NULL;
    }
    return f;
}

int labio_put(FILE *f, const char *name, labio_type type, const void *data, uint64_t count)
{
    char padded[LABIO_NAME_MAX] = {0};
    uint32_t header[2] = {(uint32_t)type, 0};
    size_t bytes = (size_t)count * labio_type_size(type);

    if (strlen(name) >= LABIO_NAME_MAX || labio_type_size(type) == 0)
        return -1;
    memcpy(padded, name, strlen(name));
    if (fwrite(padded, 1, sizeof padded, f) != sizeof padded || fwrite(header, sizeof header, 1, f) != 1 ||
        fwrite(&count, sizeof count, 1, f) != 1)
        return -1;
    if (bytes > 0 && fwrite(data, 1, bytes, f) != bytes)
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

int labio_put_i64(FILE *f, const char *name, int64_t value) { return labio_put(f, name, LABIO_I64, &value, 1); }

int labio_put_f64(FILE *f, const char *name, double value) { return labio_put(f, name, LABIO_F64, &value, 1); }

int labio_put_text(FILE *f, const char *name, const char *text)
{
    return labio_put(f, name, LABIO_TEXT, text, strlen(text));
}

static int append_record(labio_file *file, const labio_record *record)
{
    labio_record *grown = realloc(file->records, (file->count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    file->records = grown;
    file->records[file->count++] = *record;
    return 0;
}

size_t labio_page_span(const labio_record *record)
{
    size_t bytes = (size_t)record->count * labio_type_size(record->type) + 1;
    return (bytes + LABIO_PAGE - 1) / LABIO_PAGE * LABIO_PAGE;
}

static void *record_alloc(const labio_record *record, int paged)
{
    void *data = NULL;
    if (!paged)
        return malloc((size_t)(record->count * labio_type_size(record->type)) + 1);
    return posix_memalign(&data, LABIO_PAGE, labio_page_span(record)) == 0 ? data : NULL;
}

static int read_file(const char *path, labio_file *file, char *err, size_t err_size, int paged);

int labio_read(const char *path, labio_file *file, char *err, size_t err_size)
{
    return read_file(path, file, err, err_size, 0);
}

int labio_read_paged(const char *path, labio_file *file, char *err, size_t err_size)
{
    return read_file(path, file, err, err_size, 1);
}

static int read_file(const char *path, labio_file *file, char *err, size_t err_size, int paged)
{
    char magic[sizeof LABIO_MAGIC];
    FILE *f;

    memset(file, 0, sizeof *file);
    f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s", path);
        return -1;
    }
    if (fread(magic, 1, sizeof magic, f) != sizeof magic || memcmp(magic, LABIO_MAGIC, sizeof magic) != 0) {
        snprintf(err, err_size, "%s is not a labio file (bad or missing header)", path);
        fclose(f);
        return -1;
    }
    for (;;) {
        labio_record record;
        uint32_t header[2];
        uint64_t bytes;

        memset(&record, 0, sizeof record);
        size_t got = fread(record.name, 1, LABIO_NAME_MAX, f);
        if (got == 0)
            break; /* clean end of file */
        if (got != LABIO_NAME_MAX || fread(header, sizeof header, 1, f) != 1 ||
            fread(&record.count, sizeof record.count, 1, f) != 1) {
            file->truncated = 1;
            break;
        }
        record.name[LABIO_NAME_MAX - 1] = '\0';
        record.type = (labio_type)header[0];
        if (labio_type_size(record.type) == 0) {
            snprintf(err, err_size, "%s: record '%s' has unknown type %u", path, record.name, header[0]);
            fclose(f);
            labio_free(file);
            return -1;
        }
        bytes = record.count * labio_type_size(record.type);
        if (bytes > LABIO_MAX_RECORD_BYTES) {
            snprintf(err, err_size, "%s: record '%s' claims %llu bytes", path, record.name,
                     (unsigned long long)bytes);
            fclose(f);
            labio_free(file);
            return -1;
        }
        record.data = record_alloc(&record, paged);
        if (!record.data) {
            snprintf(err, err_size, "out of memory reading %s", path);
            fclose(f);
            labio_free(file);
            return -1;
        }
        if (bytes > 0 && fread(record.data, 1, (size_t)bytes, f) != bytes) {
            free(record.data);
            file->truncated = 1;
            break;
        }
        ((char *)record.data)[bytes] = '\0';
        if (append_record(file, &record) != 0) {
            free(record.data);
            snprintf(err, err_size, "out of memory reading %s", path);
            fclose(f);
            labio_free(file);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

void labio_free(labio_file *file)
{
    for (size_t i = 0; i < file->count; i++)
        free(file->records[i].data);
    free(file->records);
    memset(file, 0, sizeof *file);
}

const char *labio_first_duplicate(const labio_file *file)
{
    for (size_t i = 1; i < file->count; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(file->records[i].name, file->records[j].name) == 0)
                return file->records[i].name;
    return NULL;
}

const labio_record *labio_find(const labio_file *file, const char *name, labio_type type)
{
    /* The last record of a name wins, so a writer may correct an earlier one. */
    for (size_t i = file->count; i-- > 0;)
        if (strcmp(file->records[i].name, name) == 0)
            return file->records[i].type == type ? &file->records[i] : NULL;
    return NULL;
}

const labio_record *labio_findf(const labio_file *file, labio_type type, const char *fmt, ...)
{
    char name[LABIO_NAME_MAX + 16];
    va_list args;
    va_start(args, fmt);
    vsnprintf(name, sizeof name, fmt, args);
    va_end(args);
    return labio_find(file, name, type);
}

int labio_get_i64(const labio_file *file, const char *name, int64_t *value)
{
    const labio_record *r = labio_find(file, name, LABIO_I64);
    if (!r || r->count != 1)
        return -1;
    *value = *(const int64_t *)r->data;
    return 0;
}

int labio_get_f64(const labio_file *file, const char *name, double *value)
{
    const labio_record *r = labio_find(file, name, LABIO_F64);
    if (!r || r->count != 1)
        return -1;
    *value = *(const double *)r->data;
    return 0;
}

void labio_case_name(char *name, size_t size, int case_index, const char *key)
{
    if (case_index < 0)
        snprintf(name, size, "%s", key);
    else
        snprintf(name, size, "c%d.%s", case_index, key);
}

int labio_put_case(FILE *f, int case_index, const char *key, labio_type type, const void *data, uint64_t count)
{
    char name[LABIO_NAME_MAX];
    labio_case_name(name, sizeof name, case_index, key);
    return labio_put(f, name, type, data, count);
}

int labio_put_case_i64(FILE *f, int case_index, const char *key, int64_t value)
{
    return labio_put_case(f, case_index, key, LABIO_I64, &value, 1);
}

int labio_put_case_text(FILE *f, int case_index, const char *key, const char *text)
{
    char name[LABIO_NAME_MAX];
    labio_case_name(name, sizeof name, case_index, key);
    return labio_put_text(f, name, text);
}

const labio_record *labio_find_case(const labio_file *file, int case_index, const char *key, labio_type type)
{
    char name[LABIO_NAME_MAX + 16];
    labio_case_name(name, sizeof name, case_index, key);
    return labio_find(file, name, type);
}

int labio_get_case_i64(const labio_file *file, int case_index, const char *key, int64_t *value)
{
    char name[LABIO_NAME_MAX + 16];
    labio_case_name(name, sizeof name, case_index, key);
    return labio_get_i64(file, name, value);
}
