c     Kernels in the style of a vectorizing-compiler suite (TSVC): each
c     routine repeats its loop NTIMES inside a timing loop that calls
c     DUMMY, a routine of the driver (driver.f), and prints a checksum
c     through CHECK, also the driver's. kaiseki is given this file only:
c     DUMMY is not among its files, so the timing loops are excluded and
c     the loops inside them get the directives; the driver is compiled
c     without OpenMP and linked unchanged (tests/parallel.rs).
c
c     sum into a scalar, and a product
      subroutine ksum (ntimes, n, a, b)
      integer ntimes, n, i, nl
      real a(n), b(n), s, q, chk
      do 1 nl = 1, ntimes
         s = 0.
         q = 1.
         do 10 i = 1, n
            s = s + a(i) * b(i)
            q = q * 1.0
   10    continue
         call dummy(n, a, b, s)
    1 continue
      chk = s + q
      call check(chk, 'ksum ')
      end
c     the maximum kept in a variable named MAX (TSVC s3113)
      subroutine kmax (ntimes, n, a)
      integer ntimes, n, i, nl
      real a(n), max, chk
      do 1 nl = 1, ntimes
         max = abs(a(1))
         do 10 i = 2, n
            if ((abs(a(i))) .gt. max) max = abs(a(i))
   10    continue
         call dummy(n, a, a, max)
    1 continue
      chk = max
      call check(chk, 'kmax ')
      end
c     a stride the driver gives (TSVC s171): a sum into A whatever INC is
      subroutine kinc (ntimes, n, inc, a, b)
      integer ntimes, n, inc, i, nl
      real a(n*inc), b(n), chk, cs1d
      do 1 nl = 1, ntimes
         do 10 i = 1, n
            a(i*inc) = a(i*inc) + b(i)
   10    continue
         call dummy(n, a, b, 1.)
    1 continue
      chk = cs1d(n*inc, a)
      call check(chk, 'kinc ')
      end
c     a packed triangle walked by an induction of the inner loop (s141)
      subroutine ktri (ntimes, ld, n, pk, bb)
      integer ntimes, ld, n, i, j, k, nl
      real pk(n*(n+1)/2), bb(ld,n), chk, cs1d
      do 1 nl = 1, ntimes
         do 10 i = 1, n
            k = i*(i-1)/2 + i
            do 20 j = i, n
               pk(k) = pk(k) + bb(i,j)
               k = k + j
   20       continue
   10    continue
         call dummy(n, pk, pk, 1.)
    1 continue
      chk = cs1d(n*(n+1)/2, pk)
      call check(chk, 'ktri ')
      end
c     an induction incremented twice (s128-like), a conditional, a
c     temporary
      subroutine kmix (ntimes, n, a, b, c, d)
      integer ntimes, n, i, j, nl
      real a(n), b(n), c(n), d(n), t, chk, cs1d
      do 1 nl = 1, ntimes
         j = 0
         do 10 i = 1, n/2
            j = j + 1
            a(j) = b(i) + c(i)
            j = j + 1
            a(j) = b(i) - c(i)
   10    continue
         do 20 i = 1, n
            if (d(i) .ge. 0.) then
               b(i) = b(i) + c(i) * d(i)
            endif
   20    continue
         do 30 i = 1, n
            t = b(i) * 2.
            c(i) = t + t * d(i)
   30    continue
         call dummy(n, a, b, 1.)
    1 continue
      chk = cs1d(n, a) + cs1d(n, b) + cs1d(n, c)
      call check(chk, 'kmix ')
      end
c     a 2-D nest over a leading dimension, and a recurrence left serial
      subroutine knest (ntimes, ld, n, aa, bb, a)
      integer ntimes, ld, n, i, j, nl
      real aa(ld,n), bb(ld,n), a(n), chk, cs1d
      do 1 nl = 1, ntimes
         do 10 j = 1, n
            do 20 i = 1, n
               aa(i,j) = bb(i,j) * 0.5 + aa(i,j)
   20       continue
   10    continue
         do 30 i = 2, n
            a(i) = a(i-1) * 0.5 + a(i)
   30    continue
         call dummy(n, aa, a, 1.)
    1 continue
      chk = cs1d(ld*n, aa) + cs1d(n, a)
      call check(chk, 'knest')
      end
c     the checksum of an array
      real function cs1d (n, a)
      integer n, i
      real a(n), s
      s = 0.
      do 10 i = 1, n
         s = s + a(i)
   10 continue
      cs1d = s
      end
