"""Weight-space ensembling of a fine-tuned model with its start (--interpolate; run: /usr/bin/python3 -m unittest
discover -s train -p 'test_*.py')."""
import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class _Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.register_buffer("steps", torch.tensor([4], dtype=torch.long))
        self.register_buffer("table", torch.ones(2, 2))


class Interpolate(unittest.TestCase):
    def _pair(self):
        torch.manual_seed(0)
        net = _Net()
        start = {k: v.detach().clone() for k, v in net.state_dict().items()}
        with torch.no_grad():  # "training": every float moves, the integer buffer too
            net.lin.weight.add_(torch.randn(2, 3))
            net.lin.bias.add_(1.0)
            net.steps.add_(6)
        trained = {k: v.detach().clone() for k, v in net.state_dict().items()}
        return net, start, trained

    def test_each_float_weight_lies_the_share_of_the_way_from_start_to_trained(self):
        from askgraph_train import interpolate_
        net, start, trained = self._pair()
        interpolate_(net, start, 0.3)
        for k in ("lin.weight", "lin.bias", "table"):
            want = start[k] + 0.3 * (trained[k] - start[k])
            self.assertTrue(torch.allclose(net.state_dict()[k], want), k)
        self.assertFalse(torch.equal(net.lin.weight, trained["lin.weight"]))
        self.assertFalse(torch.equal(net.lin.weight, start["lin.weight"]))
        self.assertEqual(int(net.steps), 10, "integer buffers are not interpolated")

    def test_share_one_keeps_the_trained_weights(self):
        from askgraph_train import interpolate_
        net, start, trained = self._pair()
        interpolate_(net, start, 1.0)
        for k, v in net.state_dict().items():
            self.assertTrue(torch.equal(v, trained[k]), k)

    def test_a_share_outside_0_to_1_or_without_a_start_is_refused(self):
        import tempfile
        from askgraph_train import main
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "train", "small-train.jsonl")
        with tempfile.TemporaryDirectory() as d:
            for args, why in ((["--interpolate", "1.5"], "must be in"), (["--interpolate", "0.5"], "needs --init-from")):
                with self.assertRaises(SystemExit) as e:
                    main(["--data", data, "--out", os.path.join(d, "m"), "--size", "tiny", "--epochs", "1", *args])
                self.assertIn(why, str(e.exception))

if __name__ == "__main__":
    unittest.main()
