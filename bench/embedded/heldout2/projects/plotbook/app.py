"""Plot booking service for the Elm Street community garden."""
from flask import Flask, jsonify, request

import config

app = Flask(__name__)
app.config["SECRET_KEY"] = config.SECRET_KEY

WELCOME_MESSAGE = "Welcome to the Elm Street community garden!"

PLOTS = {
    "A1": {"size_m2": 12, "raised_bed": True},
    "A2": {"size_m2": 12, "raised_bed": False},
    "B1": {"size_m2": 20, "raised_bed": False},
    "B2": {"size_m2": 20, "raised_bed": True},
}

bookings = {}  # plot id -> member name


@app.route("/")
def index():
    return jsonify(message=WELCOME_MESSAGE)


@app.route("/plots")
def list_plots():
    free = [pid for pid in PLOTS if pid not in bookings]
    return jsonify(plots=PLOTS, free=free)


@app.route("/book", methods=["POST"])
def book_plot():
    data = request.get_json(force=True)
    member = data["member"]
    plot_id = data["plot"]
    if plot_id not in PLOTS:
        return jsonify(error="unknown plot"), 404
    if plot_id in bookings:
        return jsonify(error="plot already taken"), 409
    held = sum(1 for m in bookings.values() if m == member)
    if held >= config.MAX_PLOTS_PER_MEMBER:
        return jsonify(error="booking limit reached"), 400
    bookings[plot_id] = member
    return jsonify(ok=True, plot=plot_id), 201


if __name__ == "__main__":
    app.run(port=config.DEFAULT_PORT, debug=config.DEBUG)
