#include "todos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, used = 0;
    char *text = NULL;
    for (;;) {
        if (used + 4096 + 2 > size) {
            char *grown = realloc(text, size = 2 * size + 8192);
            if (!grown) {
                free(text);
                fclose(f);
                return NULL;
            }
            text = grown;
        }
        size_t got = fread(text + used + 1, 1, 4096, f);
        used += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    text[0] = '\n'; /* a newline first, so every line is found after one */
    text[used + 1] = '\0';
    return text;
}

/* The line number (from 1) of the region's first line in `text` (read_text's), or 0 when its
 * lines, with their neighbours, are not there together. */
static int find_region(const char *text, const shipped_todo *t)
{
    size_t length = strlen(t->lines);
    char *needle = malloc(length + 2);
    if (!needle)
        return 0;
    needle[0] = '\n'; /* from a line's start */
    memcpy(needle + 1, t->lines, length + 1);
    const char *found = strstr(text, needle);
    free(needle);
    if (!found)
        return 0;
    int before = 0; /* the line before the region: the newlines up to its start */
    for (const char *c = text; c <= found; c++)
        before += *c == '\n';
    return before + 1;
}

int todos_unfinished(const char *lab_file, const char *path, char *out, size_t size)
{
    const char *listed[64];
    int count = 0;
    size_t used = 0;
    out[0] = '\0';
    char *text = read_text(path);
    if (!text)
        return 0;
    for (int i = 0; i < shipped_todo_count; i++) {
        const shipped_todo *t = &shipped_todos[i];
        if (strcmp(t->file, lab_file) != 0)
            continue;
        size_t label = strcspn(t->title, ":");
        int repeated = 0;
        for (int j = 0; j < count && !repeated; j++)
            repeated = strncmp(listed[j], t->title, label) == 0 && listed[j][label] == ':';
        int line = repeated ? 0 : find_region(text, t);
        if (!line)
            continue;
        int written = snprintf(out + used, size - used, "    line %d: %s\n", line + t->offset, t->title);
        if (written < 0 || (size_t)written >= size - used)
            break;
        used += (size_t)written;
        if (count < 64)
            listed[count++] = t->title;
    }
    free(text);
    return count;
}
