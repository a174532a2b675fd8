"""A small agreement to edit in alignment tests (the project's own text)."""

AGREEMENT = """# Agreement

This Agreement is made between Provider and Customer. It sets out the terms on which Provider supplies the Services. It starts on the Effective Date. It continues until either party terminates it.

The parties agree to the terms below, which apply to every Order Form.

1. **Fees.** Customer shall pay all fees within thirty (30) days of the invoice date.

2. **Territory.** The licence is granted for use in:

(a) France, subject to local law;

(b) Germany, subject to local law;

(c) Spain, subject to local law.

3. **Versions.** This version is dated 1 March 2024.

4. **History.** The prior version is dated 1 March 2023.

5. **Data location.** Provider shall store Customer Data only in data centres located in the United States.

6. **Confidentiality.** Each party shall keep the other party's Confidential Information secret and use it only to perform this Agreement.

7. **Insurance.** Provider shall maintain commercial general liability insurance with limits of at least one million dollars.

8. **Notices.** Notices must be in writing and sent to the addresses on the Order Form.

9. **Governing law.** This Agreement is governed by the laws of the State of Delaware.
"""
CONFIDENTIALITY = "Each party shall keep the other party's Confidential Information secret and use it only to perform this Agreement."
INSURANCE = "7. **Insurance.** Provider shall maintain commercial general liability insurance with limits of at least one million dollars.\n\n"


def moved_and_split() -> str:
    """The agreement with section 7 moved to the end and the confidentiality clause split in two and changed."""
    split = AGREEMENT.replace(CONFIDENTIALITY, "Each party shall keep the other party's Confidential Information secret.\n\n"
                              "It may use it only to perform this Agreement and for any other purpose.")
    return split.replace(INSURANCE, "") + "\n" + INSURANCE.replace("7.", "10.")
