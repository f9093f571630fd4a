from django import forms


class UploadForm(forms.Form):
    """The upload form; a Track choice only on a task that declares tracks."""

    system_name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    track = forms.ChoiceField(required=False, help_text="the track this system competes in")
    file = forms.FileField(help_text="one corrected sentence per line, or an M2 file (.m2)")

    def __init__(self, *args, tracks=(), **kwargs):
        super().__init__(*args, **kwargs)
        if tracks:
            self.fields["track"].choices = [("", "(none)"), *((t, t) for t in tracks)]
        else:
            del self.fields["track"]
