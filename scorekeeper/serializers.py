"""Django's JSON serializer (dumpdata, loaddata, the backups), keeping every datetime to the
microsecond: Django's own encoder cuts them to milliseconds, so a restored backup would hold
other times than the database it was made from (and order ties differently)."""

import datetime

from django.core.serializers import json as django_json


class ExactJSONEncoder(django_json.DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self):
        self.options.setdefault("cls", ExactJSONEncoder)
        super()._init_options()


Deserializer = django_json.Deserializer
