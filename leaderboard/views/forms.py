from django import forms


class UploadForm(forms.Form):
    system_name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    track = forms.CharField(max_length=32, required=False, help_text="restricted, unrestricted, ... when the task has tracks")
    file = forms.FileField(help_text="one corrected sentence per line, or an M2 file (.m2); for several corpora, a zip of <corpus>.txt files")
    corpus = forms.SlugField(max_length=60, required=False, help_text="several corpora: the one corpus this file is for (empty = the file is a zip)")
