/* focus.c -- the FOCUS 1.2 columns and providers; see focus.h. */
#include "sim/app/focus.h"

#include <stdio.h>
#include <string.h>

const char *const fs_focus_columns[FS_FOCUS_NCOLS + 1] = {
    "BilledCost", "BillingAccountId", "BillingAccountName",
    "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart",
    "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency",
    "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
    "CommitmentDiscountId", "CommitmentDiscountName",
    "CommitmentDiscountQuantity", "CommitmentDiscountStatus",
    "CommitmentDiscountType", "CommitmentDiscountUnit", "ConsumedQuantity",
    "ConsumedUnit", "ContractedCost", "ContractedUnitPrice", "EffectiveCost",
    "InvoiceId", "InvoiceIssuerName", "ListCost", "ListUnitPrice", "PricingCategory",
    "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName",
    "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType",
    "ServiceCategory", "ServiceName", "ServiceSubcategory", "SkuId",
    "SkuMeter", "SkuPriceDetails", "SkuPriceId", "SubAccountId", "SubAccountName", "Tags", "x_RunId",
    "x_RunName", "x_Pool", "x_Pricing", "x_Gpu", "x_GpuHoursBusy",
    "x_AmortizedUpfrontCost", NULL,
};

void fs_focus_provider(const char *instance_type, char *provider,
                       size_t plen, char *service, size_t slen)
{
    static const struct { const char *key, *name, *service; } known[] = {
        {"aws", "AWS", "Amazon Elastic Compute Cloud"},
        {"azure", "Microsoft", "Virtual Machines"},
        {"gcp", "Google Cloud", "Compute Engine"},
    };
    snprintf(provider, plen, "fleetsim");
    snprintf(service, slen, "GPU instances");
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t k = strlen(known[i].key);
        if (!strncmp(instance_type, known[i].key, k) &&
            instance_type[k] == ':') {
            snprintf(provider, plen, "%s", known[i].name);
            snprintf(service, slen, "%s", known[i].service);
        }
    }
}
