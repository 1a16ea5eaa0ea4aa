import sys, datetime as dt, holidays
today = dt.date.fromisoformat(sys.argv[1]); state = sys.argv[2]; last = sys.argv[3]
hs = holidays.country_holidays("US", subdiv=state, observed=True, years=range(today.year-1, today.year+2))
print(f"# ASSISTANT_TODAY={today}")
print(f"# Today is {today:%A}, {today:%B} {today.day}, {today.year}.")
print(f"# {state} legal holidays near today (python holidays {holidays.__version__}, US, subdiv {state}, observed):")
for d in sorted(hs):
    if today - dt.timedelta(days=160) <= d <= today + dt.timedelta(days=120):
        print(f"#   {d} {d:%a} {hs.get(d)}")
print(last)
