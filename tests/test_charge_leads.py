"""A charge calculator's answer says its amount first, in bold (phrasing.lead_generic), from the
calculator's own result: the working follows in the explanation."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from assistant.answering.phrasing import lead_generic
from assistant.tools.charges import (AsphaltServiceInput, CulvertDepositInput, SidewalkAssessmentInput,
                                     SnowRemovalChargeInput, VillageRepairBillInput, asphalt_service_settlement,
                                     culvert_installation_deposit, sidewalk_assessment, snow_removal_charge,
                                     village_repair_bill)


@pytest.mark.parametrize("result, lead", [
    (lambda: snow_removal_charge(SnowRemovalChargeInput(municipality="brandon", employees=[
        {"hours": "1.5", "hourly_rate_including_benefits": "36"}])), "The charge comes to **$79.00**"),
    (lambda: village_repair_bill(VillageRepairBillInput(municipality="brandon", labor_cost="1100",
                                                        materials_cost="650", equipment_cost="400")),
     "The bill comes to **$2,580.00** ($2,150.00 of work plus $430.00 administration)"),
    (lambda: sidewalk_assessment(SidewalkAssessmentInput(municipality="brandon", kind="reconstruction", cost="7380")),
     "The owner is assessed **$3,690.00**"),
    (lambda: sidewalk_assessment(SidewalkAssessmentInput(municipality="brandon", kind="new_one_side_none_either",
                                                         cost="21000", owners_on_sidewalk_side=3,
                                                         owners_on_opposite_side=4)),
     "Each owner's equal share is **$3,000.00**"),
    (lambda: asphalt_service_settlement(AsphaltServiceInput(municipality="delafield", deposit="3000",
                                                            actual_cost="2500")),
     "The Town refunds **$500.00**"),
    (lambda: asphalt_service_settlement(AsphaltServiceInput(municipality="delafield", deposit="2500",
                                                            actual_cost="3000")),
     "The owner pays **$500.00** more"),
    (lambda: culvert_installation_deposit(CulvertDepositInput(municipality="delafield",
                                                              estimated_installation_cost="1800")),
     "Deposit: **$1,800.00**"),
])
def test_the_amount_leads(result, lead):
    out = result()
    assert out.ok and lead_generic(out).startswith(lead)


def test_no_lead_for_a_failed_calculation():
    out = snow_removal_charge(SnowRemovalChargeInput(municipality="delafield", employees=[
        {"hours": "1", "hourly_rate_including_benefits": "30"}]))
    assert not out.ok and lead_generic(out) == ""  # Delafield sets no such charge: no amount is led with
