"""Downloads the pages and the API share: a phase's files (the file itself when there is
one, a zip of them all when there are several: a phase with several corpora, or several
references) and the organizers' participants list."""

from __future__ import annotations

import io
import zipfile

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse

from . import access
from .insights import exports
from .insights.participants import participants_table
from .services.hosting import phase_files


def attachment(body: str | bytes, content_type: str, filename: str) -> HttpResponse:
    """``body`` as a file the browser saves under ``filename``: every download of the
    platform answers with this one header shape."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")  # a zip's first member, or an empty zip's end record


def as_uploaded(content: bytes, filename: str) -> HttpResponse:
    """A submission's file as it came: a zip of corpus files is sent as a zip (as text, a
    browser would show its bytes or save it under a name that says text); any other
    file as UTF-8 text, which the upload checked it is."""
    is_zip = content.startswith(ZIP_STARTS)
    return attachment(content, "application/zip" if is_zip else "text/plain; charset=utf-8", filename)


def phase_download(phase, user, what: str) -> HttpResponse:
    """The phase's ``input`` or ``references`` files; 403 with the reason when ``user``
    may not have them (:mod:`leaderboard.access` decides)."""
    references = what == "references"
    refused = (access.references_closed_reason if references else access.inputs_closed_reason)(phase, user)
    if refused:
        raise PermissionDenied(refused)
    files = phase_files.phase_references(phase) if references else phase_files.phase_inputs(phase)
    return files_response(files, f"{phase.task.slug}-{phase.kind}.{what}.zip")


def files_response(files: list[tuple[str, str]], zip_name: str) -> HttpResponse:
    """Deflate at level 1: a quarter of the default level's time for a zip about a fifth
    larger (``bench/task_pages.py``), as it is made again on each request."""
    if len(files) == 1:
        name, text = files[0]
        return attachment(text.encode(), "text/plain; charset=utf-8", name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for file_name, text in files:
            archive.writestr(file_name, text)
    return attachment(buffer.getvalue(), "application/zip", zip_name)


def participants_csv(task) -> HttpResponse:
    """The participants' list (:func:`.insights.participants.participants_table`); callers check the organizer."""
    text, content_type = exports.render(participants_table(task), "csv")
    return attachment(text, content_type, f"{task.slug}-participants.csv")


def campaign_judgments_xml(campaign) -> HttpResponse:
    """What the campaign's ranking counts, in Appraise's XML (``scoring human`` reads it
    back to the same figures); callers check the organizer."""
    from scoring.human import write_judgments_xml

    from .campaigns.insights.judgments import counted_items

    return attachment(
        write_judgments_xml(counted_items(campaign)),
        "application/xml",
        f"{campaign.task.slug}-{campaign.name}-judgments.xml",
    )


def campaign_judgments_csv(campaign) -> HttpResponse:
    """Every judgment of the campaign, with whether the ranking counts it."""
    from .campaigns.insights.judgments import judgments_table

    text, content_type = exports.render(judgments_table(campaign), "csv")
    return attachment(text, content_type, f"{campaign.task.slug}-{campaign.name}-judgments.csv")


def campaign_ratings_csv(campaign) -> HttpResponse:
    """A rating campaign's counted ratings, ``annotator,item,system,scale,value`` (``scoring
    human --ratings`` reads it back to the same figures); callers check the organizer."""
    from scoring.human.ratings import write_ratings

    from .campaigns.insights.ratings import counted_ratings

    return attachment(
        write_ratings(counted_ratings(campaign)),
        "text/csv; charset=utf-8",
        f"{campaign.task.slug}-{campaign.name}-ratings.csv",
    )
