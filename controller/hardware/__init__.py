"""GPIO devices at the table (gpiozero): seat and dealer buttons, the buzzer and the RGB status light."""
