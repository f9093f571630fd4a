"""``gec-submit``: log in, upload, wait with a progress bar, read results, log out.

Exit status: 0 done (scored, or received in a blind phase), 1 scoring failed,
2 the file was rejected (its problems by line on stderr), 3 any other refusal
(not logged in, phase closed, over a limit, not found), 4 the server could not be reached.
"""

from __future__ import annotations

import argparse
import functools
import getpass
import json
import os
import select
import sys
import time
import urllib.error
from pathlib import Path

from . import credentials
from .api import ApiError, Client
from .progress import Progress
from .version import __version__

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
    every corpus-level number; the path the task ranks by (``ranked_by``) first, so the
    number the board is about is never cut off the top of the list."""
    flat = flat_scores(scores)
    paths = (task or {}).get("score_paths") or []
    ranked_by = (task or {}).get("ranked_by")
    described = [d for d in paths if d["path"] == ranked_by]
    described += [d for d in paths if d.get("headline", True) and d["path"] != ranked_by]
    if described:
        return [(f"{d['label']} ({d['path']})", flat[d["path"]]) for d in described if d["path"] in flat]
    rows = [(path, value) for path, value in flat.items() if ".sentence." not in f".{path}."]
    return sorted(rows, key=lambda row: row[0] != ranked_by)  # stable: the rest keep their order


def refusal(error: ApiError, server: str) -> str:
    """What a refusal means to the user: a 401 is the login, not the request (a revoked,
    expired or never given token); anything else in the server's words."""
    if error.status == 401:
        again = f"log in again: gec-submit --server {server} login USERNAME"
        if "credentials were not provided" in str(error):
            return f"not logged in to {server} ({error}); {again}"
        return (
            "the server no longer accepts your token: it was revoked, it expired, or your password changed "
            f"({error}); {again}"
        )
    messages = [p["message"] for p in error.problems] if error.problems else []
    return "refused: " + ("; ".join(messages) if messages else str(error))


def print_problems(error: ApiError, server: str = "") -> None:
    """A rejected file's problems by file and line (400); any other refusal (a team that
    awaits approval, a closed phase, a limit, the login) says what it is, not the file."""
    problems = error.problems
    if problems and error.status == 400:
        print("the file was not accepted:", file=sys.stderr)
        for p in problems:  # a zip's problems name their corpus file
            where = (f"{p['file']}: " if p.get("file") else "") + (f"line {p['line']}: " if p.get("line") else "")
            print(f"  {where}{p['message']}", file=sys.stderr)
    else:
        print(refusal(error, server), file=sys.stderr)


def wait(client: Client, submission: dict, interval: float, timeout: float) -> dict:
    """Poll the small status until scoring ends (or ``timeout``), then read the scores once."""
    progress = Progress()
    deadline = time.monotonic() + timeout
    state = submission
    try:
        while state["status"] not in FINAL and time.monotonic() < deadline:
            progress.show(state.get("progress"), state["status"])
            time.sleep(interval)
            state = client.status(submission["id"])
        progress.show(state.get("progress") if state["status"] != "received" else None, state["status"])
    finally:
        progress.done()
    return client.submission(submission["id"]) if state is not submission else submission


def report(submission: dict, task: dict | None) -> int:
    status = submission["status"]
    if status == "failed":
        print(f"submission {submission['id']} failed: {submission.get('error') or 'no reason given'}", file=sys.stderr)
        return 1
    if status == "received":
        print(
            f"submission {submission['id']} received; this phase is blind: scores stay hidden until the "
            "organizers reveal them"
        )
        return 0
    if status != "scored":
        print(
            f"submission {submission['id']} is still {status}; check later with: gec-submit status {submission['id']}"
        )
        return 0
    print(f"submission {submission['id']} scored ({submission.get('system_name', '')})")
    rows = headline(submission.get("scores") or {}, task)
    corpora = submission.get("corpora") or {}
    if corpora:  # an upload to a phase of several corpora: the team's entry, whole
        print("  macro average over the corpora of your entry" + ("" if rows else ": none while a corpus is missing"))
    elif not rows:
        print("  (scores hidden until the phase's results are public)")
    for label, value in rows:
        print(f"  {label:<48} {value:.4f}")
    for name, scores in corpora.items():
        came_in = (submission.get("corpus_uploads") or {}).get(name)
        source = "" if scores is None or came_in in (None, submission["id"]) else f" (from submission {came_in})"
        print(f"  {name}{source}" + (": missing" if scores is None else ""))
        for label, value in headline(scores or {}, task):
            print(f"    {label:<46} {value:.4f}")
    return 0


def cmd_login(client: Client, args) -> int:
    password = (
        sys.stdin.readline().rstrip("\n")
        if args.password_stdin
        else getpass.getpass(f"password for {args.username} at {client.server}: ")
    )
    token = client.obtain_token(args.username, password)
    path = credentials.save_token(client.server, token)
    print(f"logged in; token saved in {path}")
    return 0


def cmd_logout(client: Client, args) -> int:
    """Revoke the token on the server, then forget it here (even when the server had
    already dropped it: revoked elsewhere, expired, or after a password change)."""
    if not client.token:
        print(f"not logged in to {client.server}")
        return 0
    try:
        client.revoke_token()
        print(f"token revoked on {client.server}")
    except ApiError as error:
        if error.status != 401:
            raise
        print(f"the server no longer accepted this token ({error}); nothing to revoke")
    if credentials.forget_token(client.server):
        print(f"token removed from {credentials.store_path()}")
    return 0


def phase_summary(phase: dict, default: str) -> str:
    """``dev (open, results public, default)``."""
    notes = [
        phase.get("state", ""),
        {True: "results public", False: "results hidden"}.get(phase.get("results_public"), ""),
    ]
    notes.append("default" if phase["kind"] == default else "")
    shown = ", ".join(n for n in notes if n)
    return f"{phase['kind']} ({shown})" if shown else phase["kind"]


def cmd_tasks(client: Client, args) -> int:
    for task in client.tasks():
        phases = ", ".join(phase_summary(p, task.get("default_phase", "")) for p in task.get("phases", []))
        print(f"{task['slug']:<24} {task['title']}  [{phases}]")
    return 0


def ask_phase(choices: list[dict]) -> str | None:
    """The phase the user picks among ``choices`` (the server's list of open phases), when
    a terminal is there to ask; None otherwise."""
    if not sys.stdin.isatty():
        return None
    for k, phase in enumerate(choices, start=1):
        print(f"  {k}. {phase['kind']} ({phase['results']})", file=sys.stderr)
    answer = input("which phase? (number or key, empty to cancel): ").strip()
    if answer.isdigit() and 1 <= int(answer) <= len(choices):
        return choices[int(answer) - 1]["kind"]
    return answer if answer in {p["kind"] for p in choices} else None


def phase_choices(error: ApiError) -> list[dict]:
    """The open phases listed by a refusal of an upload that named no phase."""
    return error.body.get("phases") or [] if isinstance(error.body, dict) else []


def cmd_submit(client: Client, args) -> int:
    upload = functools.partial(
        client.submit,
        args.task,
        Path(args.file),
        system_name=args.system,
        description=args.description,
        track=args.track,
        corpus=args.corpus,
    )
    try:
        try:
            submission = upload(phase=args.phase)
        except ApiError as error:
            choices = phase_choices(error)
            if not choices:
                raise
            print(f"{error.problems[0]['message'] if error.problems else error}", file=sys.stderr)
            chosen = ask_phase(choices)
            if chosen is None:
                print(
                    "give --phase KEY with one of: " + ", ".join(f"{p['kind']} ({p['results']})" for p in choices),
                    file=sys.stderr,
                )
                return 3
            submission = upload(phase=chosen)
    except ApiError as error:
        print_problems(error, client.server)
        return 2 if error.status == 400 else 3
    print(f"uploaded as submission {submission['id']} to the {submission.get('phase', '')} phase")
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
    if entry_of_several_uploads(client, rows):
        print("(* = counts on the board for its corpus: an entry's corpora may come from several uploads)")
    else:
        print("(* = the submission that counts on the board)")
    return 0


def entry_of_several_uploads(client: Client, rows: list[dict]) -> bool:
    """Whether several uploads of one team's entry are starred: a phase of several corpora
    where each corpus's output that counts came in another upload. The task is asked only
    when a phase has more than one star (every scored upload counts under GEC_POOL=all)."""
    starred: dict[tuple[str, str, str], int] = {}
    for s in rows:
        if s.get("counts"):
            key = (s["task"], s["phase"], s["team"])
            starred[key] = starred.get(key, 0) + 1
    for slug, phase in sorted({(task, phase) for (task, phase, _), n in starred.items() if n > 1}):
        phases = client.task(slug).get("phases") or []
        if any(p.get("kind") == phase and p.get("corpora") for p in phases):
            return True
    return False


def cmd_choose(client: Client, args) -> int:
    client.choose(args.id)
    print(f"submission {args.id} now counts for your team")
    return 0


def cmd_download(client: Client, args) -> int:
    data = client.sentences(args.id, args.format, args.corpus)
    if args.output:
        Path(args.output).write_bytes(data)
        print(f"wrote {args.output} ({len(data)} bytes)")
    else:
        sys.stdout.buffer.write(data)
    return 0


def cmd_download_input(client: Client, args) -> int:
    data, name = client.phase_input(args.task, args.phase)
    if args.output == "-":
        sys.stdout.buffer.write(data)
        return 0
    path = Path(args.output or name)
    path.write_bytes(data)
    print(f"wrote {path} ({len(data)} bytes)")
    return 0


def cmd_accept_terms(client: Client, args) -> int:
    terms = client.terms(args.task)
    if not terms["version"]:
        print(f"{args.task} has no terms to accept")
        return 0
    if terms["accepted_at"]:
        print(f"you accepted the terms of {args.task} (version {terms['version']}) on {terms['accepted_at'][:16]}")
        return 0
    if not args.yes:
        print(terms["markdown"], end="\n\n")
        print(f"accept these terms of {args.task} (version {terms['version']})? [y/N] ", end="", flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            print("not accepted", file=sys.stderr)
            return 3
    accepted = client.accept_terms(args.task, terms["version"])
    print(f"accepted the terms of {args.task} (version {accepted['version']}) on {accepted['accepted_at'][:16]}")
    return 0


def cmd_leaderboard(client: Client, args) -> int:
    board = client.leaderboard(args.task, args.metric, args.phase)
    print(f"{args.task}, {board.get('phase', '')} phase, ranked by {board['metric']}")
    for row in board["rows"]:
        value = flat_scores(row["scores"]).get(board["metric"])
        shown = "-" if value is None else f"{value:.4f}"
        rank = "base" if row.get("rank") is None else row["rank"]
        print(
            f"{rank:>4}  {shown:>8}  "
            f"{row['system_name'] if row.get('baseline') else row['team'] + '/' + row['system_name']}"
        )
        for name, scores in (row.get("corpora") or {}).items():  # a phase of several corpora: the entry's parts
            value = None if scores is None else flat_scores(scores).get(board["metric"])
            came_in = (row.get("corpus_uploads") or {}).get(name)
            source = f"  (from submission {came_in})" if came_in not in (None, row["submission_id"]) else ""
            print(
                f"{'':>4}  {'missing' if scores is None else '-' if value is None else f'{value:.4f}':>8}    "
                f"{name}{source}"
            )
    note = (board.get("gotoscorer_pool") or {}).get("note")
    if note:
        print(f"note: {note}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="gec-submit", description="Take part in a GEC shared task: upload outputs, follow scoring, read results."
    )
    top.add_argument(
        "--server",
        help="the platform's address, e.g. https://gec.example.org (default: GEC_SERVER, else the last one logged "
        "in to)",
    )
    top.add_argument("--token", help="an API token (default: GEC_TOKEN, else the one saved by login)")
    top.add_argument("--version", action="version", version=f"gec-submit {__version__}")
    commands = top.add_subparsers(dest="command", required=True)

    login = commands.add_parser("login", help="get a token with your username and password, and save it")
    login.add_argument("username")
    login.add_argument("--password-stdin", action="store_true", help="read the password from stdin (for scripts)")
    login.set_defaults(run=cmd_login)

    commands.add_parser("logout", help="revoke your token on the server and forget it here").set_defaults(
        run=cmd_logout
    )

    commands.add_parser("tasks", help="list the tasks and their phases").set_defaults(run=cmd_tasks)

    submit = commands.add_parser("submit", help="upload a system output and wait for its scores")
    submit.add_argument("task", help="the task's slug")
    submit.add_argument(
        "file",
        help="one corrected sentence per line (or an .m2 file); for several corpora, a zip of <corpus>.txt files",
    )
    submit.add_argument("--system", required=True, help="your system's name")
    submit.add_argument(
        "--phase",
        help="the phase key (default: the one open phase whose results are public; "
        "when only hidden phases are open, or several public ones, you are asked, or told to name one)",
    )
    submit.add_argument("--description", default="")
    submit.add_argument("--track", default="")
    submit.add_argument(
        "--corpus",
        default="",
        help="a phase of several corpora: the corpus this file is for (else give a zip with one <corpus>.txt per "
        "corpus)",
    )
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
    download.add_argument(
        "--corpus", help="an upload to a phase of several corpora: the corpus whose results to download"
    )
    download.set_defaults(run=cmd_download)

    inputs = commands.add_parser("download-input", help="a phase's input sentences (a zip when it has several corpora)")
    inputs.add_argument("task")
    inputs.add_argument("--phase", help="the phase key (default: the task's default phase)")
    inputs.add_argument("-o", "--output", help="file to write, - for stdout (default: the name the server gives)")
    inputs.set_defaults(run=cmd_download_input)

    terms = commands.add_parser(
        "accept-terms", help="read and accept a task's terms (needed before the first submission)"
    )
    terms.add_argument("task")
    terms.add_argument("--yes", action="store_true", help="accept without showing the terms and asking")
    terms.set_defaults(run=cmd_accept_terms)

    board = commands.add_parser("leaderboard", help="a task's leaderboard")
    board.add_argument("task")
    board.add_argument("--metric")
    board.add_argument("--phase", help="the phase key (default: the open phase whose results are public)")
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
        code = args.run(client, args)
        sys.stdout.flush()  # a closed pipe is found here, not at exit
        return code
    except BrokenPipeError:
        if not stdout_closed():
            print(f"cannot reach {server}: the connection was closed", file=sys.stderr)
            return 4
        return 0
    except ApiError as error:
        print(refusal(error, client.server), file=sys.stderr)
        return 2 if error.status == 400 else 3
    except (urllib.error.URLError, OSError) as error:
        print(f"cannot reach {server}: {error}", file=sys.stderr)
        return 4


def stdout_closed() -> bool:
    """Whether our reader went away (``gec-submit status 30 | head -1``), not the server:
    nothing is wrong then, so say nothing. Standard output is pointed at the null device,
    or Python would report the same closed pipe again on its way out."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if hasattr(select, "poll"):
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        if not any(events & select.POLLERR for _, events in poll.poll(0)):
            return False  # our reader is still there: the pipe that broke was the server's
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    return True
