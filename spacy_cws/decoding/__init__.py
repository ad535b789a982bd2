"""From a network's scores to words, and the gold labels it is trained on:
gap labels and B/M/E/S tags, the label schemes, greedy and constrained
Viterbi decoding of where words start, and the word spans they make.
Below the backends, which hand a decoder the scores of the network they run."""
