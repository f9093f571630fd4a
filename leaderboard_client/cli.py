"""``gec-submit``: log in, upload, wait with a progress bar, read results.

Exit status: 0 done (scored, or received in a blind phase), 1 scoring failed,
2 the file was rejected (its problems by line on stderr), 3 any other refusal
(not logged in, phase closed, over a limit, not found), 4 the server could not be reached.
"""
from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
import urllib.error
from pathlib import Path

from . import __version__, credentials
from .api import ApiError, Client
from .progress import Progress

FINAL = ("scored", "failed", "received")


def flat_scores(scores: dict, prefix: str = "") -> dict[str, float]:
    """Every number of a system's scores object by dotted path, without per-type tables
    and per-sentence blocks (those are what ``download`` is for)."""
    flat = {}
    for key, value in scores.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and not key.startswith("per_type"):
            flat.update(flat_scores(value, path + "."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            flat[path] = value
    return flat


def headline(scores: dict, task: dict | None) -> list[tuple[str, float]]:
    """The task's headline paths with their labels when the server lists them, else
    every corpus-level number."""
    flat = flat_scores(scores)
    described = [d for d in (task or {}).get("score_paths") or [] if d.get("headline", True)]
    if described:
        return [(f"{d['label']} ({d['path']})", flat[d["path"]]) for d in described if d["path"] in flat]
    return [(path, value) for path, value in flat.items() if ".sentence." not in f".{path}."]


def print_problems(error: ApiError) -> None:
    problems = error.problems
    if problems:
        print("the file was not accepted:", file=sys.stderr)
        for p in problems:  # a zip's problems name their corpus file
            where = (f"{p['file']}: " if p.get("file") else "") + (f"line {p['line']}: " if p.get("line") else "")
            print(f"  {where}{p['message']}", file=sys.stderr)
    else:
        print(f"refused: {error}", file=sys.stderr)


def wait(client: Client, submission: dict, interval: float, timeout: float) -> dict:
    progress = Progress()
    deadline = time.monotonic() + timeout
    try:
        while submission["status"] not in FINAL and time.monotonic() < deadline:
            progress.show(submission.get("progress"), submission["status"])
            time.sleep(interval)
            submission = client.submission(submission["id"])
        progress.show(submission.get("progress") if submission["status"] != "received" else None, submission["status"])
    finally:
        progress.done()
    return submission


def report(submission: dict, task: dict | None) -> int:
    status = submission["status"]
    if status == "failed":
        print(f"submission {submission['id']} failed: {submission.get('error') or 'no reason given'}", file=sys.stderr)
        return 1
    if status == "received":
        print(f"submission {submission['id']} received; this phase is blind: scores stay hidden until the organizers reveal them")
        return 0
    if status != "scored":
        print(f"submission {submission['id']} is still {status}; check later with: gec-submit status {submission['id']}")
        return 0
    print(f"submission {submission['id']} scored ({submission.get('system_name', '')})")
    rows = headline(submission.get("scores") or {}, task)
    if not rows:
        print("  (scores hidden until the phase's results are public)")
    for label, value in rows:
        print(f"  {label:<48} {value:.4f}")
    return 0


def cmd_login(client: Client, args) -> int:
    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else getpass.getpass(f"password for {args.username} at {client.server}: ")
    token = client.obtain_token(args.username, password)
    path = credentials.save_token(client.server, token)
    print(f"logged in; token saved in {path}")
    return 0


def cmd_tasks(client: Client, args) -> int:
    for task in client.tasks():
        phases = ", ".join(f"{p['kind']} ({p.get('state', '')})".replace(" ()", "") for p in task.get("phases", []))
        print(f"{task['slug']:<24} {task['title']}  [{phases}]")
    return 0


def cmd_submit(client: Client, args) -> int:
    try:
        submission = client.submit(args.task, Path(args.file), system_name=args.system, phase=args.phase, description=args.description, track=args.track, corpus=args.corpus)
    except ApiError as error:
        print_problems(error)
        return 2 if error.status == 400 else 3
    print(f"uploaded as submission {submission['id']}")
    if args.no_wait:
        return 0
    task = client.task(args.task)
    return report(wait(client, submission, args.interval, args.timeout), task)


def cmd_status(client: Client, args) -> int:
    submission = client.submission(args.id)
    if args.wait:
        submission = wait(client, submission, args.interval, args.timeout)
    return report(submission, client.task(submission["task"]))


def cmd_list(client: Client, args) -> int:
    rows = client.my_submissions(args.task, args.phase)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for s in rows:
        counted = "*" if s.get("counts") else " "
        print(f"{counted} {s['id']:>6}  {s['created_at'][:16]}  {s['phase']:<8} {s['status']:<9} {s['system_name']}")
    print("(* = the submission that counts on the board)")
    return 0


def cmd_choose(client: Client, args) -> int:
    client.choose(args.id)
    print(f"submission {args.id} now counts for your team")
    return 0


def cmd_download(client: Client, args) -> int:
    data = client.sentences(args.id, args.format)
    if args.output:
        Path(args.output).write_bytes(data)
        print(f"wrote {args.output} ({len(data)} bytes)")
    else:
        sys.stdout.buffer.write(data)
    return 0


def cmd_leaderboard(client: Client, args) -> int:
    board = client.leaderboard(args.task, args.metric, args.phase)
    print(f"{args.task}, ranked by {board['metric']}")
    for row in board["rows"]:
        value = flat_scores(row["scores"]).get(board["metric"])
        shown = "-" if value is None else f"{value:.4f}"
        print(f"{row['rank']:>4}  {shown:>8}  {row['team']}/{row['system_name']}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="gec-submit", description="Take part in a GEC shared task: upload outputs, follow scoring, read results.")
    top.add_argument("--server", help="the platform's address, e.g. https://gec.example.org (default: GEC_SERVER, else the last one logged in to)")
    top.add_argument("--token", help="an API token (default: GEC_TOKEN, else the one saved by login)")
    top.add_argument("--version", action="version", version=f"gec-submit {__version__}")
    commands = top.add_subparsers(dest="command", required=True)

    login = commands.add_parser("login", help="get a token with your username and password, and save it")
    login.add_argument("username")
    login.add_argument("--password-stdin", action="store_true", help="read the password from stdin (for scripts)")
    login.set_defaults(run=cmd_login)

    commands.add_parser("tasks", help="list the tasks and their phases").set_defaults(run=cmd_tasks)

    submit = commands.add_parser("submit", help="upload a system output and wait for its scores")
    submit.add_argument("task", help="the task's slug")
    submit.add_argument("file", help="one corrected sentence per line (or an .m2 file); for several corpora, a zip of <corpus>.txt files")
    submit.add_argument("--system", required=True, help="your system's name")
    submit.add_argument("--phase", help="the phase key (default: the open one)")
    submit.add_argument("--description", default="")
    submit.add_argument("--track", default="")
    submit.add_argument("--corpus", default="", help="a phase of several corpora: the corpus this file is for (else give a zip with one <corpus>.txt per corpus)")
    submit.add_argument("--no-wait", action="store_true", help="return once uploaded")
    submit.set_defaults(run=cmd_submit)

    status = commands.add_parser("status", help="a submission's status and scores")
    status.add_argument("id", type=int)
    status.add_argument("--wait", action="store_true", help="wait until it is scored or failed")
    status.set_defaults(run=cmd_status)

    listing = commands.add_parser("list", help="your team's submissions")
    listing.add_argument("task", nargs="?")
    listing.add_argument("--phase")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(run=cmd_list)

    choose = commands.add_parser("choose", help="make a submission the one that counts (phases where teams choose)")
    choose.add_argument("id", type=int)
    choose.set_defaults(run=cmd_choose)

    download = commands.add_parser("download", help="a submission's per-sentence results")
    download.add_argument("id", type=int)
    download.add_argument("--format", choices=("csv", "json"), default="csv")
    download.add_argument("-o", "--output", help="file to write (default: stdout)")
    download.set_defaults(run=cmd_download)

    board = commands.add_parser("leaderboard", help="a task's leaderboard")
    board.add_argument("task")
    board.add_argument("--metric")
    board.add_argument("--phase")
    board.set_defaults(run=cmd_leaderboard)

    for sub in (submit, status):
        sub.add_argument("--interval", type=float, default=2.0, help="seconds between polls")
        sub.add_argument("--timeout", type=float, default=3600.0, help="give up waiting after this many seconds")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    server = args.server or credentials.default_server()
    if not server:
        print("give --server (or set GEC_SERVER), e.g. --server https://gec.example.org", file=sys.stderr)
        return 3
    client = Client(server, args.token or credentials.token_for(server.rstrip("/")))
    try:
        return args.run(client, args)
    except ApiError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2 if error.status == 400 else 3
    except (urllib.error.URLError, OSError) as error:
        print(f"cannot reach {server}: {error}", file=sys.stderr)
        return 4
