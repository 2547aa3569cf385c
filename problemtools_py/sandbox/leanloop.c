/* The lean init's run loop in C (see zygote.py): take a run from the grader, fork the
 * program, set its limits, descriptors, user and cgroup, wait for it under the CPU and
 * wall limits, kill and reap what it left, answer with the accounting, renew the scratch
 * space. The same steps as zygote.serve and inside.program, in the same order, without
 * touching the interpreter's heap: every page the init touches after a fork is a page
 * fault (the fork made it copy-on-write), and the Python loop touched about 250 a run.
 *
 * Loaded with ctypes.PyDLL (the GIL stays held: the init has no other thread). The loop
 * returns to Python in the child of an in-process Python run (to run the program; an
 * exec'd one it starts itself, see spawn) and when only Python can go on: a
 * run with a new argv/env/main file, a new main file to prepare, a message on the control
 * socket, the grader gone. Wire formats: protocol.LEAN_REQUEST and protocol.LEAN_REPLY.
 * Built on first use by native.py; without a compiler the Python loop does the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define MAX_SCRATCH 4
#define MAX_JOIN 8
#define SPEC_MAX 65536
#define REQUEST_SIZE 28 /* =ddiiI */
#define REPLY_SIZE 56   /* =BBBBiiddddqI */
#define POLL_MS 20
#define NOFILE 512      /* inside.NOFILE: descriptors per task (see docs/judging.md) */
#define SCRATCH_INODES 16384

enum { CHILD = 0, NEED_SPEC = 1, NEED_PREPARE = 2, CONTROL = 3, GRADER_GONE = 4, RENEW = 5,
       FAILED = -1 };
#define FRESH 1         /* protocol.FRESH: the request starts another completion */
#define UNLIMITED_STACK 2 /* protocol.UNLIMITED_STACK: RLIMIT_STACK unlimited */

struct lean_config {            /* mirrored by leannative.Config (ctypes) */
    int grader, control;
    int cpu_fd, cpu_usec;       /* cpu counter; 1: cgroup v2 cpu.stat usage_usec, 0: ns */
    int peak_fd, oom_fd, tasks_fd, full_fd; /* full: pids.events, its "max" count */
    int njoin, join[MAX_JOIN];  /* cgroup membership files the program writes itself into */
    int nscratch, shared[MAX_SCRATCH];
    const char *scratch[MAX_SCRATCH];
    const char *cwd;
    long long file_bytes, address_space; /* address_space < 0: no RLIMIT_AS */
    unsigned uid, gid;
    int cpus_fd;                /* the session group's cpuset.cpus (-1: none), see inside.pin */
    const char *all_cpus;       /* what it holds when no core is named */
};

struct lean_state {             /* mirrored by leannative.State */
    int pending;                /* a request read, its descriptors below, not yet run */
    int fds[3];                 /* stdin, stdout, stderr of the pending run */
    int exec_error;             /* in the child: the setup-error pipe (close-on-exec) */
    int inprocess;              /* the current spec runs a Python main file in process */
    double cpu, wall;
    int core;
    unsigned spec_len;
    char spec[SPEC_MAX];        /* the new spec (NEED_SPEC; protocol.lean_spec) */
    char main_path[4096];       /* the current main file (set by Python) */
    int main_known;             /* main_bytes hold it as prepared (0: Python changed it) */
    int pinned;                 /* the core this init runs on, -1: its first affinity */
    cpu_set_t all;
    long long cpu_count, oom_count, full_count; /* the counters after the last run */
    long long snap[MAX_SCRATCH][9];
    char error[512];            /* why FAILED */
    char *const *exec_argv;     /* an exec'd spec's argv and environment, NULL-ended, held */
    char *const *exec_envp;     /* by Python (NULL: Python starts the program, see run) */
    const char *exec_path;      /* the PATH searched for argv[0] (NULL: it names a path) */
    int served;                 /* a request was read: this process has held a program */
    int flags;                  /* the pending request's (UNLIMITED_STACK) */
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* The number in a cgroup file: its first word, or the value on the line "key value". */
static long long counter(int fd, const char *key) {
    char buf[16384];
    if (fd < 0) return 0;
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    if (!key) return strtoll(buf, NULL, 10);
    size_t k = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, key, k) && line[k] == ' ') return strtoll(line + k + 1, NULL, 10);
    return 0;
}

static long long cpu_raw(const struct lean_config *c) {
    return counter(c->cpu_fd, c->cpu_usec ? "usage_usec" : NULL);
}

static double cpu_seconds(const struct lean_config *c, long long raw) {
    return raw / (c->cpu_usec ? 1e6 : 1e9);
}

static long long oom_kills(const struct lean_config *c) { return counter(c->oom_fd, "oom_kill"); }
static long long refused(const struct lean_config *c) { return counter(c->full_fd, "max"); }

static void looks(const char *dir, long long *out) {
    struct stat st;
    memset(out, 0xff, 9 * sizeof *out);
    if (stat(dir, &st)) return;
    long long v[9] = {(long long)st.st_ino, st.st_mode, st.st_uid, st.st_gid, st.st_size,
                      (long long)st.st_nlink,
                      st.st_atim.tv_sec * 1000000000LL + st.st_atim.tv_nsec,
                      st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
                      st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec};
    memcpy(out, v, sizeof v);
}

/* As inside.pristine: the root directory the only file, no data, unchanged, no xattrs. */
static int pristine(const char *dir, const long long *snap) {
    struct statvfs fs;
    long long now_looks[9];
    if (statvfs(dir, &fs) || fs.f_files - fs.f_ffree > 1 || fs.f_blocks != fs.f_bfree) return 0;
    looks(dir, now_looks);
    return !memcmp(now_looks, snap, sizeof now_looks) && listxattr(dir, NULL, 0) == 0;
}

/* As inside.renew_scratch: a new tmpfs on each scratch directory a run changed. */
static int renew_scratch(const struct lean_config *c, struct lean_state *s) {
    char data[160];
    for (int i = 0; i < c->nscratch; i++) {
        if (pristine(c->scratch[i], s->snap[i])) continue;
        if (umount2(c->scratch[i], MNT_DETACH)) goto failed;
        if (c->shared[i])
            snprintf(data, sizeof data, "size=%lld,nr_inodes=%d,mode=1777", c->file_bytes,
                     SCRATCH_INODES);
        else
            snprintf(data, sizeof data, "size=%lld,nr_inodes=%d,mode=755,uid=%u,gid=%u",
                     c->file_bytes, SCRATCH_INODES, c->uid, c->gid);
        if (mount("tmpfs", c->scratch[i], "tmpfs", MS_NOSUID | MS_NODEV, data)) goto failed;
        looks(c->scratch[i], s->snap[i]);
        continue;
    failed:
        snprintf(s->error, sizeof s->error, "renewing %s: %s", c->scratch[i], strerror(errno));
        return -1;
    }
    return 0;
}

static void pin(const struct lean_config *c, struct lean_state *s, int core) {
    if (core == s->pinned) return;
    if (c->cpus_fd >= 0) {      /* the cpuset first: the affinity alone a program widens */
        char named[16];
        const char *cpus = c->all_cpus;
        if (core >= 0) snprintf(named, sizeof named, "%d", core), cpus = named;
        if (pwrite(c->cpus_fd, cpus, strlen(cpus), 0) < 0) { /* as Python: left alone */ }
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    if (core >= 0 && core < CPU_SETSIZE) CPU_SET(core, &one);
    if (!sched_setaffinity(0, sizeof(cpu_set_t), core >= 0 ? &one : &s->all)) s->pinned = core;
}

static void say(int fd, const char *what) {
    char msg[600];
    int n = snprintf(msg, sizeof msg, "sandbox setup failed: %s: %s", what, strerror(errno));
    if (write(fd, msg, n > 0 ? (size_t)n : 0) < 0) { /* nobody left to tell */ }
}

/* The program's own process, up to the program (as inside.program): limits, descriptors,
 * user, then the cgroup last, so that only the program itself is measured. */
static int child(const struct lean_config *c, struct lean_state *s, int exec_w) {
    rlim_t cpu = (rlim_t)s->cpu + 2;
    struct rlimit r = {cpu, cpu + 1};
    if (setrlimit(RLIMIT_CPU, &r)) return say(exec_w, "RLIMIT_CPU"), -1;
    r.rlim_cur = r.rlim_max = (rlim_t)c->file_bytes;
    if (setrlimit(RLIMIT_FSIZE, &r)) return say(exec_w, "RLIMIT_FSIZE"), -1;
    r.rlim_cur = r.rlim_max = 0;
    if (setrlimit(RLIMIT_CORE, &r)) return say(exec_w, "RLIMIT_CORE"), -1;
    r.rlim_cur = r.rlim_max = NOFILE;
    if (setrlimit(RLIMIT_NOFILE, &r)) return say(exec_w, "RLIMIT_NOFILE"), -1;
    rlim_t stack = 1 << 30; /* protocol.STACK */
    if (c->address_space >= 0) {
        r.rlim_cur = r.rlim_max = (rlim_t)c->address_space;
        if (setrlimit(RLIMIT_AS, &r)) return say(exec_w, "RLIMIT_AS"), -1;
        if ((rlim_t)c->address_space / 2 < stack) stack = (rlim_t)c->address_space / 2;
    }
    if ((s->flags & UNLIMITED_STACK) && !getrlimit(RLIMIT_STACK, &r) && r.rlim_max == RLIM_INFINITY) {
        r.rlim_cur = RLIM_INFINITY;
        if (setrlimit(RLIMIT_STACK, &r)) return say(exec_w, "RLIMIT_STACK"), -1;
    } else if (!getrlimit(RLIMIT_STACK, &r) && (r.rlim_max == RLIM_INFINITY || r.rlim_max >= stack)) {
        r.rlim_cur = stack;
        if (setrlimit(RLIMIT_STACK, &r)) return say(exec_w, "RLIMIT_STACK"), -1;
    }
    if (dup2(s->fds[0], 0) < 0 || dup2(s->fds[1], 1) < 0 || dup2(s->fds[2], 2) < 0)
        return say(exec_w, "dup2"), -1;
    if (chdir(c->cwd)) return say(exec_w, "chdir"), -1;
    /* (raw calls: the C library's wrappers would tell every thread, and a spawned child
     * shares the init's memory, thread list included) */
    if (syscall(SYS_setgroups, 0, NULL) || syscall(SYS_setgid, c->gid) || syscall(SYS_setuid, c->uid))
        return say(exec_w, "user"), -1;
    /* every descriptor but 0, 1, 2, the setup-error pipe and the cgroup files */
    int keep[MAX_JOIN + 1], n = 0, low = 3;
    keep[n++] = exec_w;
    for (int i = 0; i < c->njoin; i++) keep[n++] = c->join[i];
    for (int i = 0; i < n; i++) /* sort (a handful) */
        for (int j = i + 1; j < n; j++)
            if (keep[j] < keep[i]) { int t = keep[i]; keep[i] = keep[j]; keep[j] = t; }
    for (int i = 0; i < n; i++) {
        if (keep[i] > low) syscall(SYS_close_range, low, keep[i] - 1, 0);
        if (keep[i] >= low) low = keep[i] + 1;
    }
    syscall(SYS_close_range, low, ~0U, 0);
    if (fcntl(exec_w, F_SETFD, FD_CLOEXEC)) return say(exec_w, "close-on-exec"), -1;
    for (int i = 0; i < c->njoin; i++) {
        if (write(c->join[i], "0", 1) != 1) return say(exec_w, "joining the cgroup"), -1;
        close(c->join[i]);
    }
    s->exec_error = exec_w;
    return 0;
}

/* As os.execvpe (inside.start): argv[0] as it is when it holds a slash, else in each
 * directory of the PATH in turn; what is told is the first failure that is not "no such
 * file", else the last, as Python words it. Returns only when nothing could be run. */
static void exec_program(const struct lean_state *s, int exec_w) {
    const char *file = s->exec_argv[0], *dir = s->exec_path;
    char full[8192], told[8192];
    int first = 0, last = ENOENT;
    if (!dir) {
        execve(file, s->exec_argv, s->exec_envp);
        last = errno;
        snprintf(told, sizeof told, "%s", file);
    }
    while (dir) {
        const char *end = strchrnul(dir, ':');
        int n = (int)(end - dir);
        int len = n ? snprintf(full, sizeof full, "%.*s%s%s", n, dir, dir[n - 1] == '/' ? "" : "/", file)
                    : snprintf(full, sizeof full, "%s", file);
        if (len < 0 || (size_t)len >= sizeof full) errno = ENAMETOOLONG;
        else execve(full, s->exec_argv, s->exec_envp);
        int e = errno;
        if (!first) {
            last = e;
            snprintf(told, sizeof told, "%s", full);
            if (e != ENOENT && e != ENOTDIR) first = e;
        }
        dir = *end ? end + 1 : NULL;
    }
    char msg[600]; /* (a name searched for is told as bytes, as Python searches) */
    int n = snprintf(msg, sizeof msg, "sandbox setup failed: [Errno %d] %s: %s'%s'", first ? first : last,
                     strerror(first ? first : last), s->exec_path ? "b" : "", told);
    if (write(exec_w, msg, n > 0 && n < (int)sizeof msg ? (size_t)n : sizeof msg - 1) < 0) { /* gone */ }
}

/* The program of an exec'd spec started without a copy of the init: a child that shares
 * its memory (the init waits meanwhile, as for vfork) until the program replaces it. A
 * fork would copy the interpreter's page tables only for exec to drop them: ~0.5 ms a
 * run. The child runs on a stack of its own, every signal at its default action (as
 * inside.default_signals leaves them across exec), and blocks them all until then. */
static char spawn_stack[1 << 16] __attribute__((aligned(64)));

struct spawn_args {
    const struct lean_config *c;
    struct lean_state *s;
    int exec_w;
    sigset_t mask; /* the init's own, the program's at exec */
};

static int spawned(void *arg) {
    struct spawn_args *a = arg;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) sigaction(sig, &dfl, NULL); /* (KILL, STOP: refused) */
    if (!child(a->c, a->s, a->exec_w)) {
        sigprocmask(SIG_SETMASK, &a->mask, NULL);
        exec_program(a->s, a->exec_w);
    }
    _exit(127);
}

static pid_t spawn(const struct lean_config *c, struct lean_state *s, int exec_w) {
    struct spawn_args a = {c, s, exec_w, {{0}}};
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &a.mask);
    pid_t pid = clone(spawned, spawn_stack + sizeof spawn_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
    sigprocmask(SIG_SETMASK, &a.mask, NULL);
    return pid;
}

/* A small /proc file's text into buf (NUL-terminated); its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    return n;
}

/* se.exec_start of a /proc/.../sched file, in ms; NAN when it cannot be read. */
static double exec_start(const char *path) {
    char buf[4096];
    if (read_small(path, buf, sizeof buf) < 0) return NAN;
    char *line = strstr(buf, "se.exec_start");
    char *colon = line ? strchr(line, ':') : NULL;
    return colon ? strtod(colon + 1, NULL) : NAN;
}

/* How long a runnable task has waited since it last ran (0 when it sleeps or is gone;
 * NAN, unknown, when it never ran):
 * the scheduler statistics count a wait only when it ends. Only on this CPU (the lean
 * init shares its program's core): each CPU's scheduler clock leaves out its own steal
 * and interrupt time, so two CPUs' clocks are not comparable (see counters.pending_wait). */
static double pending_wait(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (read_small(path, buf, sizeof buf) < 0) return 0;
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || p[2] != 'R') return 0;
    int field = 3, cpu = -1;  /* (the state is field 3; the CPU it last ran on, 39) */
    for (p += 2; *p && field < 39; p++)
        if (*p == ' ') field++;
    if (field == 39) cpu = atoi(p);
    if (cpu != sched_getcpu()) return 0;
    snprintf(path, sizeof path, "/proc/%d/sched", pid);
    double since = exec_start(path), now = exec_start("/proc/thread-self/sched");
    if (since == 0) return NAN;  /* (never ran yet: how long it waited is unknown) */
    return isnan(since) || isnan(now) || now < since ? 0 : (now - since) / 1e3;
}

static double queued_seconds(pid_t pid) {
    char path[64], buf[128];
    snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
    if (read_small(path, buf, sizeof buf) < 0) return NAN;
    char *end, *second = strchr(buf, ' ');
    if (!second) return NAN;
    long long waited = strtoll(second + 1, &end, 10);
    return end == second + 1 ? NAN : waited / 1e9 + pending_wait(pid);
}

static int send_all(int fd, const char *buf, size_t len) {
    while (len) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

struct reply {
    unsigned char kind, killed, limits, has_queued; /* limits: protocol.OOM | TASKS_FULL */
    int exit_code, signal;
    double cpu, wall, ended, queued;
    long long peak;
};

static int send_reply(int fd, const struct reply *r, const char *msg, unsigned len) {
    char buf[REPLY_SIZE + 4000];
    unsigned char flags[4] = {r->kind, r->killed, r->limits, r->has_queued};
    if (len > 4000) len = 4000;
    memcpy(buf, flags, 4);
    memcpy(buf + 4, &r->exit_code, 4);
    memcpy(buf + 8, &r->signal, 4);
    memcpy(buf + 12, &r->cpu, 8);
    memcpy(buf + 20, &r->wall, 8);
    memcpy(buf + 28, &r->ended, 8);
    memcpy(buf + 36, &r->queued, 8);
    memcpy(buf + 44, &r->peak, 8);
    memcpy(buf + 52, &len, 4);
    memcpy(buf + REPLY_SIZE, msg, len);
    return send_all(fd, buf, REPLY_SIZE + len);
}

static int send_error(int fd, const char *msg) {
    struct reply r = {.kind = 1};
    return send_reply(fd, &r, msg, (unsigned)strlen(msg));
}

static int recv_exact(int fd, char *buf, size_t len) {
    while (len) {
        ssize_t n = recv(fd, buf, len, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void close_pending(struct lean_state *s) {
    for (int i = 0; i < 3; i++)
        if (s->fds[i] >= 0) close(s->fds[i]);
    s->fds[0] = s->fds[1] = s->fds[2] = -1;
    s->pending = 0;
}

/* Whether the next request, not yet read, starts another completion (its header peeked:
 * its descriptors stay queued for whoever reads it). A header not all there yet is waited
 * for; the grader gone: not fresh (read_request finds that). */
static int next_is_fresh(int fd) {
    char head[REQUEST_SIZE];
    for (;;) {
        ssize_t n = recv(fd, head, REQUEST_SIZE, MSG_PEEK);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        if (n == REQUEST_SIZE) break;
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, 1); /* (the rest of a header sent in one call: microseconds) */
    }
    int flags;
    memcpy(&flags, head + 20, 4);
    return (flags & FRESH) != 0;
}

/* Read one request: 1 when a run is pending, 0 when it was answered with an error (a
 * malformed request), -1 when the grader has gone. */
static int read_request(const struct lean_config *c, struct lean_state *s) {
    char head[REQUEST_SIZE];
    union { char buf[CMSG_SPACE(8 * sizeof(int))]; struct cmsghdr align; } control;
    struct iovec iov = {head, 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                         .msg_controllen = sizeof control.buf};
    ssize_t n;
    do n = recvmsg(c->grader, &msg, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    if (n <= 0) return -1;
    int fds[8], nfds = 0;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&msg); h; h = CMSG_NXTHDR(&msg, h))
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) {
            int count = (int)((h->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < count && nfds < 8; i++) memcpy(&fds[nfds++], CMSG_DATA(h) + i * sizeof(int), sizeof(int));
        }
    if (recv_exact(c->grader, head + 1, REQUEST_SIZE - 1)) goto gone;
    unsigned spec_len;
    memcpy(&s->cpu, head, 8);
    memcpy(&s->wall, head + 8, 8);
    memcpy(&s->core, head + 16, 4);
    memcpy(&s->flags, head + 20, 4);
    memcpy(&spec_len, head + 24, 4);
    if (spec_len > SPEC_MAX) goto gone; /* the grader's own bug: the stream is lost */
    if (spec_len && recv_exact(c->grader, s->spec, spec_len)) goto gone;
    s->spec_len = spec_len;
    if (nfds != 3) {
        for (int i = 0; i < nfds; i++) close(fds[i]);
        return send_error(c->grader, "a lean run takes stdin, stdout and stderr") ? -1 : 0;
    }
    memcpy(s->fds, fds, sizeof s->fds);
    s->pending = 1;
    s->served = 1;
    return 1;
gone:
    for (int i = 0; i < nfds; i++) close(fds[i]);
    return -1;
}

/* Whether the main file still holds the bytes (and mode) it had when it was prepared,
 * compared in full as zygote.prepared does: timestamps are too coarse to tell apart two
 * quick programs of one size written over one another. Files over MAIN_MAX are left to
 * Python every time. */
#define MAIN_MAX (1 << 20)
static char main_bytes[MAIN_MAX], main_read[MAIN_MAX];
static size_t main_len;
static mode_t main_mode;

static int main_unchanged(struct lean_state *s) {
    int fd = open(s->main_path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return s->main_known = 0, 0;
    size_t len = 0;
    ssize_t n = 0;
    if (fstat(fd, &st) || st.st_size >= MAIN_MAX) goto unknown;
    while (len < MAIN_MAX && (n = read(fd, main_read + len, MAIN_MAX - len)) > 0) len += (size_t)n;
    if (n < 0 || len >= MAIN_MAX) goto unknown;
    close(fd);
    if (s->main_known && len == main_len && st.st_mode == main_mode &&
        !memcmp(main_read, main_bytes, len))
        return 1;
    memcpy(main_bytes, main_read, len);
    main_len = len;
    main_mode = st.st_mode;
    s->main_known = 1;
    return 0;
unknown:
    close(fd);
    return s->main_known = 0, 0;
}

/* Wait for the program under the wall limit and the CPU limit of its whole process tree
 * (RLIMIT_CPU covers the program alone), as zygote.wait_run. */
static int wait_run(const struct lean_config *c, struct lean_state *s, pid_t pid, double start,
                    struct reply *r, int *status) {
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) return -1;
    struct pollfd p = {pidfd, POLLIN, 0};
    while (poll(&p, 1, POLL_MS) <= 0) {
        if (r->killed) continue;
        if (now() - start > s->wall) {
            r->killed = 2;
            r->queued = queued_seconds(pid);
            r->has_queued = !isnan(r->queued);
        } else if (cpu_seconds(c, cpu_raw(c) - s->cpu_count) > s->cpu) {
            r->killed = 1;
        }
        if (r->killed) kill(-1, SIGKILL);
    }
    close(pidfd);
    while (wait4(pid, status, 0, NULL) < 0)
        if (errno != EINTR) return -1;
    r->ended = now();
    return 0;
}

/* After a run: kill and reap whatever is left (the cgroup counts every process, zombies
 * included), as zygote.serve does. */
static void clean_up(const struct lean_config *c) {
    char buf[64];
    ssize_t n = c->tasks_fd >= 0 ? pread(c->tasks_fd, buf, sizeof buf - 1, 0) : -1;
    if (n > 0) {
        buf[n] = 0;
        if (strtoll(buf, NULL, 10) == 0) return;
    }
    if (kill(-1, SIGKILL) && errno == ESRCH) return;
    while (wait(NULL) >= 0 || errno == EINTR) {}
}

/* One run of the pending request, in the parent; CHILD in the child. */
static int run(const struct lean_config *c, struct lean_state *s) {
    int pipe_fds[2];
    struct reply r = {0};
    int status = 0;
    pin(c, s, s->core);
    if (pipe2(pipe_fds, O_CLOEXEC)) return snprintf(s->error, sizeof s->error, "pipe: %s", strerror(errno)), FAILED;
    if (c->peak_fd >= 0 && pwrite(c->peak_fd, "0", 1, 0) < 0) { /* as Python: ignored */ }
    long long cpu_before = s->cpu_count, oom_before = s->oom_count, full_before = s->full_count;
    double start = now();
    pid_t pid = s->exec_argv && !s->inprocess ? spawn(c, s, pipe_fds[1]) : fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        if (child(c, s, pipe_fds[1])) _exit(127);
        return CHILD;
    }
    close_pending(s);
    close(pipe_fds[1]);
    if (pid < 0) {
        close(pipe_fds[0]);
        return send_error(c->grader, "fork failed") ? GRADER_GONE : 1;
    }
    if (wait_run(c, s, pid, start, &r, &status)) {
        close(pipe_fds[0]);
        return snprintf(s->error, sizeof s->error, "waiting: %s", strerror(errno)), FAILED;
    }
    clean_up(c);
    s->cpu_count = cpu_raw(c);
    s->oom_count = oom_kills(c);
    s->full_count = refused(c);
    char setup_error[4000];
    ssize_t n = read(pipe_fds[0], setup_error, sizeof setup_error);
    close(pipe_fds[0]);
    int sent;
    if (n > 0) {
        sent = send_reply(c->grader, &(struct reply){.kind = 1}, setup_error, (unsigned)n);
    } else {
        r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        r.cpu = cpu_seconds(c, s->cpu_count - cpu_before);
        r.wall = r.ended - start;
        r.peak = c->peak_fd >= 0 ? counter(c->peak_fd, NULL) : 0;
        r.limits = (s->oom_count > oom_before ? 1 : 0) | (s->full_count > full_before ? 2 : 0);
        sent = send_reply(c->grader, &r, "", 0);
    }
    if (renew_scratch(c, s)) return FAILED; /* while the grader reads the reply */
    return sent ? GRADER_GONE : 1;
}

/* Set up once the Python side has filled the config: the affinity to go back to, the
 * counters as they stand, how the scratch directories look new. */
int ptpy_lean_start(const struct lean_config *c, struct lean_state *s) {
    s->pending = 0;
    s->fds[0] = s->fds[1] = s->fds[2] = s->exec_error = -1;
    s->pinned = -1;
    if (sched_getaffinity(0, sizeof s->all, &s->all)) CPU_ZERO(&s->all);
    s->cpu_count = cpu_raw(c);
    s->oom_count = oom_kills(c);
    s->full_count = refused(c);
    for (int i = 0; i < c->nscratch; i++) looks(c->scratch[i], s->snap[i]);
    return 0;
}

/* Serve runs until Python is needed (see the codes at the top). ``prepared``: the caller
 * has just handled NEED_SPEC or NEED_PREPARE for the pending run. */
int ptpy_lean_serve(const struct lean_config *c, struct lean_state *s, int prepared) {
    for (;;) {
        if (!s->pending) {
            struct pollfd p[2] = {{c->control, POLLIN, 0}, {c->grader, POLLIN, 0}};
            int nfds = c->grader >= 0 ? 2 : 1;
            if (poll(p, nfds, -1) < 0) {
                if (errno == EINTR) continue;
                return snprintf(s->error, sizeof s->error, "poll: %s", strerror(errno)), FAILED;
            }
            if (p[0].revents) return CONTROL;
            if (!p[1].revents) continue;
            if (s->served && next_is_fresh(c->grader)) return RENEW;
            int got = read_request(c, s);
            if (got < 0) return GRADER_GONE;
            if (got == 0) continue;
            prepared = 0;
            if (s->spec_len) return NEED_SPEC;
        }
        if (!prepared && s->inprocess && !main_unchanged(s)) return NEED_PREPARE;
        int done = run(c, s);
        if (done != 1) return done;
        prepared = 0;
    }
}
