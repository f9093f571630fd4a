from django import forms

from ..models.text import NAME_MAX, SUBMISSION_DESCRIPTION_MAX, TRACK_MAX, at_most, visible_name


class UploadForm(forms.Form):
    system_name = forms.CharField(max_length=NAME_MAX, validators=[visible_name])
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "maxlength": SUBMISSION_DESCRIPTION_MAX}), required=False, validators=[at_most(SUBMISSION_DESCRIPTION_MAX)])
    track = forms.CharField(max_length=TRACK_MAX, required=False, help_text="restricted, unrestricted, ... when the task has tracks")
    file = forms.FileField(help_text="one corrected sentence per line, or an M2 file (.m2); for several corpora, a zip of <corpus>.txt files")
    corpus = forms.SlugField(max_length=60, required=False, help_text="several corpora: the one corpus this file is for (empty = the file is a zip)")
