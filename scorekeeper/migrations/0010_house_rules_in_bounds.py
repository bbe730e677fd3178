"""House rules are now bounded by what a real table can be (rules/settings.py). Rules stored
before, out of those bounds, would no longer load and their pages would fail: this refuses to
migrate until they are changed, naming each, rather than rewriting a table's rules silently."""

from django.db import migrations

import rules


def rules_out_of_bounds(apps, schema_editor=None) -> None:
    """Raise naming every stored profile and table whose rules HouseRules now refuses."""
    problems = []
    stored = [("RulesProfile", "settings", "rules profile"), ("Game", "rules", "table")]
    for model_name, field, what in stored:
        model = apps.get_model("scorekeeper", model_name)
        for pk, values in model.objects.values_list("pk", field).iterator():
            try:
                rules.HouseRules.from_dict(values)
            except (rules.RulesError, TypeError) as error:
                problems.append(f"{what} {pk}: {error}")
    if problems:
        raise RuntimeError(
            "These house rules are beyond what a real table can be; change them in the admin "
            "and migrate again:\n" + "\n".join(problems)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0009_roles"),
    ]

    operations = [migrations.RunPython(rules_out_of_bounds, migrations.RunPython.noop)]
