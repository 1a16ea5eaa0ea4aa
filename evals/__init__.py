

def offline_env() -> None:
    """Every evaluation command runs offline: no hub download, no telemetry (set unless the caller chose)."""
    import os

    for key, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("ANONYMIZED_TELEMETRY", "False")):
        os.environ.setdefault(key, value)
