/* listen: a TCP listener on 127.0.0.1 for the grader's network test.
 *
 *   listen PORTFILE LOGFILE SECONDS
 *
 * Binds an ephemeral port, writes its number to PORTFILE, and for SECONDS accepts
 * connections; each one appends "CONNECTED" to LOGFILE. The sandboxed submission
 * tries to connect: the log must stay empty (its network namespace has no route to
 * the host's loopback).
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: listen PORTFILE LOGFILE SECONDS\n");
        return 2;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 8) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &len) != 0) {
        perror("listen");
        return 1;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f)
        return 1;
    fprintf(f, "%d\n", ntohs(a.sin_port));
    fclose(f);
    time_t end = time(NULL) + atoi(argv[3]);
    while (time(NULL) < end) {
        struct pollfd p = {s, POLLIN, 0};
        if (poll(&p, 1, 200) > 0) {
            int c = accept(s, NULL, NULL);
            FILE *log = fopen(argv[2], "a");
            if (log) {
                fprintf(log, "CONNECTED\n");
                fclose(log);
            }
            if (c >= 0)
                close(c);
        }
    }
    return 0;
}
