from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0024_campaign_invitations")]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="corpus",
            field=models.SlugField(
                blank=True,
                default="",
                help_text="on a phase of several corpora: the corpus whose texts it shows",
                max_length=60,
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="builtin",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='mode rating: built-in outputs rated beside the systems ("ORIGINAL", "REFERENCE")',
            ),
        ),
    ]
