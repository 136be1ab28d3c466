from billing.models import Invoice
