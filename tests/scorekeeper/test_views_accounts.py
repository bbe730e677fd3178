"""Signing up (scorekeeper/views/accounts.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_lands_home(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "ann",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert response.status_code == 302
    assert client.get(reverse("home")).status_code == 200
    assert get_user_model().objects.filter(username="ann").exists()
