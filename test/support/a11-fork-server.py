"""Runs `a11` commands for the test suites without paying for Python's start-up each time.

The reference CLI spends most of a second importing itself. This process imports it once, then
forks a child per request (JSON lines on stdin: {"id", "argv", "cwd", "stdin"}), with the child's
standard streams redirected to files, and answers with {"id", "exit", "stdout", "stderr"} when
the child has exited. Several children may run at once.
"""
import json
import os
import sys
import tempfile
import threading

from a11.cli.__main__ import main as a11_main
import a11.flow  # noqa: F401  (imported now so each child starts warm)

answer_lock = threading.Lock()


def answer(message):
    with answer_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def child(argv, cwd, stdin_path, out_path, err_path):
    code = 1
    try:
        os.chdir(cwd)
        os.dup2(os.open(stdin_path, os.O_RDONLY), 0)
        os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        # Fresh stream objects: another thread may have held the old ones' locks at the fork.
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        sys.argv = ["a11", *argv]
        code = a11_main()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported on the child's stderr
        import traceback

        traceback.print_exc()
        code = 99
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code or 0)


def serve(request):
    scratch = tempfile.mkdtemp(prefix="a11-fork-")
    stdin_path = os.path.join(scratch, "stdin")
    out_path = os.path.join(scratch, "stdout")
    err_path = os.path.join(scratch, "stderr")
    with open(stdin_path, "w", encoding="utf-8") as handle:
        handle.write(request.get("stdin", ""))
    pid = os.fork()
    if pid == 0:
        child(request["argv"], request["cwd"], stdin_path, out_path, err_path)
    _, status = os.waitpid(pid, 0)
    exit_code = os.waitstatus_to_exitcode(status)
    if exit_code < 0:
        exit_code = 128 - exit_code
    with open(out_path, encoding="utf-8", errors="replace") as handle:
        stdout = handle.read()
    with open(err_path, encoding="utf-8", errors="replace") as handle:
        stderr = handle.read()
    for path in (stdin_path, out_path, err_path):
        os.unlink(path)
    os.rmdir(scratch)
    answer({"id": request["id"], "exit": exit_code, "stdout": stdout, "stderr": stderr})


for line in sys.stdin:
    if line.strip():
        threading.Thread(target=serve, args=(json.loads(line),), daemon=True).start()
