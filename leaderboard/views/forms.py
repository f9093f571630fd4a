from django import forms

from ..models.text import NAME_MAX, SUBMISSION_DESCRIPTION_MAX, at_most, visible_name


class UploadForm(forms.Form):
    """The upload form; a Track choice only on a task that declares tracks."""

    system_name = forms.CharField(max_length=NAME_MAX, validators=[visible_name])
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": SUBMISSION_DESCRIPTION_MAX}),
        required=False,
        validators=[at_most(SUBMISSION_DESCRIPTION_MAX)],
    )
    track = forms.ChoiceField(required=False, help_text="the track this system competes in")
    file = forms.FileField(
        help_text="one corrected sentence per line, or an M2 file (.m2); for several corpora, a zip of <corpus>.txt "
        "files"
    )
    corpus = forms.SlugField(
        max_length=60,
        required=False,
        help_text="several corpora: the one corpus this file is for (empty = the file is a zip)",
    )

    def __init__(self, *args, tracks=(), **kwargs):
        super().__init__(*args, **kwargs)
        if tracks:
            self.fields["track"].choices = [("", "(none)"), *((t, t) for t in tracks)]
        else:
            del self.fields["track"]
